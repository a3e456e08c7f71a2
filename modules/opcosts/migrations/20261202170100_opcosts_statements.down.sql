DROP TABLE opcost_statements;
--bun:split
DROP TABLE opcost_keys;
