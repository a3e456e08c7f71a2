{{if .Postgres}}
ALTER TABLE charges DROP CONSTRAINT charges_paid_amount_check;
--bun:split
{{end}}
DROP INDEX charges_penalty_for_key;
--bun:split
ALTER TABLE charges DROP COLUMN penalty_for;
--bun:split
ALTER TABLE charges DROP COLUMN kind;
--bun:split
ALTER TABLE charges DROP COLUMN paid_amount_minor;
