ALTER TABLE workspaces DROP COLUMN schedule;
--bun:split
ALTER TABLE workspaces DROP COLUMN time_zone;
