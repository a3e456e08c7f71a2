{{if .Postgres}}
DROP TRIGGER IF EXISTS users_changed ON users;
--bun:split
DROP FUNCTION IF EXISTS propman_users_changed();
{{else}}
SELECT 1;
{{end}}
