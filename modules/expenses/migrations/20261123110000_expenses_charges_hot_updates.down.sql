{{if .Postgres}}
ALTER TABLE charges SET (fillfactor = 80);
--bun:split
CREATE INDEX charges_open_idx ON charges (property_id, due_date, created_at, id) WHERE status = 'unpaid';
{{end}}
