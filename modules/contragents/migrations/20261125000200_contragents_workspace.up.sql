-- Records belong to a workspace (modules/workspaces): each existing row
-- moves into its owner's own workspace, made for every user by the
-- workspaces migration just before. owner_id stays: the workspace's
-- landlord, named on its documents.
ALTER TABLE contragents ADD COLUMN workspace_id BIGINT REFERENCES workspaces (id);
--bun:split
UPDATE contragents SET workspace_id = (SELECT w.id FROM workspaces w WHERE w.landlord_id = contragents.owner_id);
--bun:split
-- SQLite cannot add NOT NULL to a column; the model always writes one.
{{if .Postgres}}ALTER TABLE contragents ALTER COLUMN workspace_id SET NOT NULL;{{else}}SELECT 1;{{end}}
--bun:split
CREATE INDEX contragents_workspace_idx ON contragents (workspace_id, id);
--bun:split
DROP INDEX contragents_owner_idx;
