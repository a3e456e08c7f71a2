DROP INDEX charges_contract_idx;
--bun:split
DROP INDEX expenses_contract_idx;
--bun:split
ALTER TABLE charges DROP COLUMN contract_id;
--bun:split
ALTER TABLE expenses DROP COLUMN contract_id;
