-- The platform's own bookkeeping: one row saying which version of the schema
-- this database was created with, so support can tell an old database apart.
CREATE TABLE platform_info (
    key VARCHAR(64) NOT NULL PRIMARY KEY,
    value VARCHAR(255) NOT NULL
);
--bun:split
INSERT INTO platform_info (key, value) VALUES ('created_with', '1.0.0');
