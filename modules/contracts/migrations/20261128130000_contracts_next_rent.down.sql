ALTER TABLE contracts DROP COLUMN prior_rent_minor;
--bun:split
ALTER TABLE contracts DROP COLUMN rent_from;
