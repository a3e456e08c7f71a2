-- Most charges have no counter, reading, penalty or contract (and manual
-- ones no expense): indexes of those columns keep only the rows that have
-- one, so paying a charge (an update PostgreSQL cannot make in place)
-- writes fewer index entries. Lookups by a value use them as before.
DROP INDEX charges_expense_idx;
--bun:split
CREATE INDEX charges_expense_idx ON charges (expense_id) WHERE expense_id IS NOT NULL;
--bun:split
DROP INDEX charges_contract_idx;
--bun:split
CREATE INDEX charges_contract_idx ON charges (contract_id) WHERE contract_id IS NOT NULL;
--bun:split
DROP INDEX charges_counter_idx;
--bun:split
CREATE INDEX charges_counter_idx ON charges (counter_id) WHERE counter_id IS NOT NULL;
--bun:split
DROP INDEX charges_reading_key;
--bun:split
CREATE UNIQUE INDEX charges_reading_key ON charges (reading_id) WHERE reading_id IS NOT NULL;
--bun:split
DROP INDEX charges_penalty_for_key;
--bun:split
CREATE UNIQUE INDEX charges_penalty_for_key ON charges (penalty_for) WHERE penalty_for IS NOT NULL;
--bun:split
-- What a payment spreads over, oldest first: the open charges only.
CREATE INDEX charges_open_idx ON charges (property_id, due_date, created_at, id) WHERE status = 'unpaid';
