DROP TABLE ledger_lines;
--bun:split
DROP TABLE ledger_entries;
--bun:split
DROP TABLE ledger_accounts;
{{if .Postgres}}
--bun:split
DROP FUNCTION ledger_entry_balanced();
--bun:split
DROP FUNCTION ledger_line_open();
--bun:split
DROP FUNCTION ledger_immutable();
{{end}}
