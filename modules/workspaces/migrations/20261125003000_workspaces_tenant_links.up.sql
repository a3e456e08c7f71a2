-- A user linked to a contragent of a workspace (by accepting a portal
-- invitation) is that contragent's tenant: they read their own tenancy
-- under /api/v1/tenancy and nothing else of the workspace.
CREATE TABLE tenant_links (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    contragent_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES contragents (id) ON DELETE CASCADE,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    created_at {{.Time}} NOT NULL,
    PRIMARY KEY (user_id, contragent_id)
);
--bun:split
CREATE INDEX tenant_links_workspace_idx ON tenant_links (workspace_id, user_id);
