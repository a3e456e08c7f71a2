ALTER TABLE charges DROP COLUMN name_args;
--bun:split
ALTER TABLE charges DROP COLUMN name_kind;
--bun:split
ALTER TABLE expenses DROP COLUMN name_args;
--bun:split
ALTER TABLE expenses DROP COLUMN name_kind;
