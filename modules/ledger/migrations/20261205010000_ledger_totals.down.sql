DROP TRIGGER IF EXISTS ledger_lines_delta{{if .Postgres}} ON ledger_lines{{end}};
--bun:split
{{if .Postgres}}DROP FUNCTION IF EXISTS ledger_lines_delta();{{else}}SELECT 1;{{end}}
--bun:split
DROP TABLE IF EXISTS ledger_deltas;
--bun:split
DROP TABLE IF EXISTS ledger_totals;
