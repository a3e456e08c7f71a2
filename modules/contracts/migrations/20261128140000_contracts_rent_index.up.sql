-- A rent change by an index keeps the index data its letter states
-- (§ 557b BGB, loi 89-462 art. 17-1): the index, its value at the last
-- change and now, and their periods (YYYY-MM, or YYYY-Qn for a quarterly
-- index). Values are decimal text, kept exactly as entered.
ALTER TABLE contract_rents ADD COLUMN index_name VARCHAR(200);
--bun:split
ALTER TABLE contract_rents ADD COLUMN index_old_period VARCHAR(7);
--bun:split
ALTER TABLE contract_rents ADD COLUMN index_old_value VARCHAR(20);
--bun:split
ALTER TABLE contract_rents ADD COLUMN index_new_period VARCHAR(7);
--bun:split
ALTER TABLE contract_rents ADD COLUMN index_new_value VARCHAR(20);
