CREATE INDEX properties_owner_idx ON properties (owner_id, id);
--bun:split
CREATE INDEX properties_owner_archived_idx ON properties (owner_id, id) WHERE archived_at IS NOT NULL;
--bun:split
DROP INDEX properties_workspace_idx;
--bun:split
DROP INDEX properties_workspace_archived_idx;
--bun:split
ALTER TABLE properties DROP COLUMN workspace_id;
