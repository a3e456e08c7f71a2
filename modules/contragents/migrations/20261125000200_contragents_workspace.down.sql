CREATE INDEX contragents_owner_idx ON contragents (owner_id, id);
--bun:split
DROP INDEX contragents_workspace_idx;
--bun:split
ALTER TABLE contragents DROP COLUMN workspace_id;
