-- What a generated name is made of (modules/expenses/chargename): its kind
-- and the arguments the wording needs, so a reader gets the name in their
-- language. name keeps the English wording that older code and SQL readers
-- (reports, the compensations' deposit lookup) use. Existing rows are
-- custom here; the Go migration after this one reads their English names.
ALTER TABLE expenses ADD COLUMN name_kind VARCHAR(32) NOT NULL DEFAULT 'custom';
--bun:split
ALTER TABLE expenses ADD COLUMN name_args TEXT NOT NULL DEFAULT '';
--bun:split
ALTER TABLE charges ADD COLUMN name_kind VARCHAR(32) NOT NULL DEFAULT 'custom';
--bun:split
ALTER TABLE charges ADD COLUMN name_args TEXT NOT NULL DEFAULT '';
