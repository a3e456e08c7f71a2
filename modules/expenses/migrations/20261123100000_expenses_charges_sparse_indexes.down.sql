DROP INDEX charges_open_idx;
--bun:split
DROP INDEX charges_penalty_for_key;
--bun:split
CREATE UNIQUE INDEX charges_penalty_for_key ON charges (penalty_for);
--bun:split
DROP INDEX charges_reading_key;
--bun:split
CREATE UNIQUE INDEX charges_reading_key ON charges (reading_id);
--bun:split
DROP INDEX charges_counter_idx;
--bun:split
CREATE INDEX charges_counter_idx ON charges (counter_id);
--bun:split
DROP INDEX charges_contract_idx;
--bun:split
CREATE INDEX charges_contract_idx ON charges (contract_id);
--bun:split
DROP INDEX charges_expense_idx;
--bun:split
CREATE INDEX charges_expense_idx ON charges (expense_id);
