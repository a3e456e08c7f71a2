{{if .Postgres}}
-- Paying a charge changes its paid amount and often its status. The
-- partial index of open charges named the status in its predicate, so
-- PostgreSQL could never update a charge in place (HOT): each payment
-- wrote a new entry in every index of every charge it paid. Without it,
-- and with half of each page left free for the new row versions, a charge
-- is paid in place. Open charges are found through charges_property_idx
-- (property, due date), which a property's list of charges uses anyway.
-- SQLite updates rows in place and keeps the partial index.
DROP INDEX charges_open_idx;
--bun:split
ALTER TABLE charges SET (fillfactor = 50);
{{end}}
