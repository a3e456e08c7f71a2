DROP INDEX contracts_bank_account_idx;
--bun:split
ALTER TABLE contracts DROP COLUMN bank_account_id;
