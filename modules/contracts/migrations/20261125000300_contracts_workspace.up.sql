-- Records belong to a workspace (modules/workspaces): each existing row
-- moves into its owner's own workspace, made for every user by the
-- workspaces migration just before. owner_id stays: the workspace's
-- landlord, named on its documents.
ALTER TABLE contracts ADD COLUMN workspace_id BIGINT REFERENCES workspaces (id);
--bun:split
UPDATE contracts SET workspace_id = (SELECT w.id FROM workspaces w WHERE w.landlord_id = contracts.owner_id);
--bun:split
-- SQLite cannot add NOT NULL to a column; the model always writes one.
{{if .Postgres}}ALTER TABLE contracts ALTER COLUMN workspace_id SET NOT NULL;{{else}}SELECT 1;{{end}}
--bun:split
CREATE INDEX contracts_workspace_idx ON contracts (workspace_id, id);
--bun:split
CREATE INDEX contracts_workspace_status_idx ON contracts (workspace_id, status, end_date);
--bun:split
DROP INDEX contracts_owner_idx;
--bun:split
DROP INDEX contracts_owner_status_idx;
