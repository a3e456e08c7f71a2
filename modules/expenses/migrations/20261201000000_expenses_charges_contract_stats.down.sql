{{if .Postgres}}
DROP STATISTICS IF EXISTS charges_property_contract_stats;
{{end}}
