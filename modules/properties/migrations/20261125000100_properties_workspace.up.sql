-- Records belong to a workspace (modules/workspaces): each existing row
-- moves into its owner's own workspace, made for every user by the
-- workspaces migration just before. owner_id stays: the workspace's
-- landlord, named on its documents.
ALTER TABLE properties ADD COLUMN workspace_id BIGINT REFERENCES workspaces (id);
--bun:split
UPDATE properties SET workspace_id = (SELECT w.id FROM workspaces w WHERE w.landlord_id = properties.owner_id);
--bun:split
-- SQLite cannot add NOT NULL to a column; the model always writes one.
{{if .Postgres}}ALTER TABLE properties ALTER COLUMN workspace_id SET NOT NULL;{{else}}SELECT 1;{{end}}
--bun:split
-- Lists are per workspace in id (= creation) order; the archived list has
-- its own small index, as it had per owner.
CREATE INDEX properties_workspace_idx ON properties (workspace_id, id);
--bun:split
CREATE INDEX properties_workspace_archived_idx ON properties (workspace_id, id) WHERE archived_at IS NOT NULL;
--bun:split
DROP INDEX properties_owner_idx;
--bun:split
DROP INDEX properties_owner_archived_idx;
