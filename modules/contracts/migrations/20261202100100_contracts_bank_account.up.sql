-- The bank account the contract's rent is paid to (modules/bankaccounts);
-- NULL: the workspace's default account. The foreign key keeps an account
-- a contract names from being deleted (bankaccounts answers 409 in_use).
ALTER TABLE contracts ADD COLUMN bank_account_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} REFERENCES bank_accounts (id);
--bun:split
-- The foreign key's check on a deletion of an account reads this index.
CREATE INDEX contracts_bank_account_idx ON contracts (bank_account_id);
