DROP TABLE IF EXISTS inspections;
--bun:split
DROP TABLE IF EXISTS assets;
