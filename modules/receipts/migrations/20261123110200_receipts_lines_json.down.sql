{{if .Postgres}}
ALTER TABLE receipts ALTER COLUMN lines TYPE JSONB USING lines::jsonb;
{{end}}
