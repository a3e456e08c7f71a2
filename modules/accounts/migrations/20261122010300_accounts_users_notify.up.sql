{{if .Postgres}}
-- Every instance caches the users it checked tokens for and forgets one
-- when this notification of its change arrives, which is at its commit,
-- whoever made it (an instance, a command, an operator by hand).
CREATE FUNCTION propman_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('propman_users', OLD.id::text);
    RETURN NULL;
END
$$;
--bun:split
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION propman_users_changed();
{{else}}
-- SQLite: one process serves; the cache forgets on its own writes.
SELECT 1;
{{end}}
