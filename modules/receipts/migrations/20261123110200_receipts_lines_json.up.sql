{{if .Postgres}}
-- A receipt's lines are written once and read back whole, never queried
-- inside: JSON keeps the text as sent, where JSONB parsed and rebuilt it
-- (a third of writing the receipt of a payment over a thousand charges).
ALTER TABLE receipts ALTER COLUMN lines TYPE JSON USING lines::json;
{{end}}
