DROP TABLE workspace_members;
--bun:split
DROP TABLE workspaces;
