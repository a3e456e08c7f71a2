ALTER TABLE contract_rents DROP COLUMN index_new_value;
--bun:split
ALTER TABLE contract_rents DROP COLUMN index_new_period;
--bun:split
ALTER TABLE contract_rents DROP COLUMN index_old_value;
--bun:split
ALTER TABLE contract_rents DROP COLUMN index_old_period;
--bun:split
ALTER TABLE contract_rents DROP COLUMN index_name;
