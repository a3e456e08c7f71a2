-- The consumption share (50 to 70 %, § 7 Abs. 1 HeizKV) of a category
-- spread per HeizKV; null for the other keys.
ALTER TABLE opcost_keys ADD COLUMN consumption_share INTEGER;
--bun:split
-- A statement that corrects a posted one of the same period: posting it
-- books only the difference per contract and supersedes the original (no
-- foreign key: SQLite cannot drop a column that has one; both rows go
-- with their building).
ALTER TABLE opcost_statements ADD COLUMN corrects_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
