{{if .Postgres}}
-- A contract belongs to one property, so (property_id, contract_id) has
-- as many values as there are contracts; PostgreSQL, which multiplies the
-- two columns' counts, guessed five times that and sorted every open
-- charge, spilling to disk, to group them for the arrears report
-- (modules/reports) instead of hashing them in memory.
CREATE STATISTICS charges_property_contract_stats (ndistinct) ON property_id, contract_id FROM charges;
--bun:split
ANALYZE charges;
{{end}}
