-- ?q= is a substring search (name_search LIKE '%term%' OR email LIKE
-- '%term%'), which no btree can answer: on PostgreSQL trigram indexes
-- (pg_trgm) answer both sides without reading the owner's whole table.
-- pg_trgm is a trusted extension (PostgreSQL 13+): a role with CREATE on
-- the database may create it; an older server needs a superuser to run
-- CREATE EXTENSION pg_trgm once before this migration. SQLite keeps LIKE.
{{if .Postgres}}CREATE EXTENSION IF NOT EXISTS pg_trgm;
--bun:split
CREATE INDEX contragents_name_trgm_idx ON contragents USING gin (name_search gin_trgm_ops);
--bun:split
CREATE INDEX contragents_email_trgm_idx ON contragents USING gin (email gin_trgm_ops);{{else}}SELECT 1;{{end}}
