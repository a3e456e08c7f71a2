DELETE FROM ledger_accounts WHERE bank_account_id IS NOT NULL;
--bun:split
DROP INDEX ledger_accounts_bank_idx;
--bun:split
ALTER TABLE ledger_accounts DROP COLUMN bank_account_id;
