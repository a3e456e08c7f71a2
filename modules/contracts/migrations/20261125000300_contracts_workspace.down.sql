CREATE INDEX contracts_owner_idx ON contracts (owner_id, id);
--bun:split
CREATE INDEX contracts_owner_status_idx ON contracts (owner_id, status, end_date);
--bun:split
DROP INDEX contracts_workspace_idx;
--bun:split
DROP INDEX contracts_workspace_status_idx;
--bun:split
ALTER TABLE contracts DROP COLUMN workspace_id;
