-- The extension stays: other objects may use it, and dropping it needs the
-- privilege that creating it did.
{{if .Postgres}}DROP INDEX contragents_email_trgm_idx;
--bun:split
DROP INDEX contragents_name_trgm_idx;{{else}}SELECT 1;{{end}}
