ALTER TABLE deposit_settlements DROP COLUMN interest_lines;
--bun:split
ALTER TABLE deposit_settlements DROP COLUMN interest_minor;
--bun:split
ALTER TABLE deposit_settlements DROP COLUMN interest_rate_e4;
