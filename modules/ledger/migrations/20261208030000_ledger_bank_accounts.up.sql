-- A sub-account of the bank (1800-1, 1800-2, ... in the order the
-- workspace's bank accounts were made) for each bank account: a payment
-- imported from an account's statement is booked to it. Codes of one
-- workspace are unique already; one sub-account per bank account.
ALTER TABLE ledger_accounts ADD COLUMN bank_account_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
CREATE UNIQUE INDEX ledger_accounts_bank_idx ON ledger_accounts (workspace_id, bank_account_id);
--bun:split
-- The bank accounts made before.
INSERT INTO ledger_accounts (id, workspace_id, code, role, bank_account_id, created_at)
SELECT {{if .Postgres}}gen_random_uuid(){{else}}lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12)){{end}},
    workspace_id, '1800-' || CAST(n AS VARCHAR(20)), 'bank', id, created_at
FROM (SELECT b.id, b.workspace_id, b.created_at,{{if not .Postgres}} hex(randomblob(16)) AS h,{{end}}
        ROW_NUMBER() OVER (PARTITION BY b.workspace_id ORDER BY b.created_at, b.id) AS n
    FROM bank_accounts AS b) AS x;
