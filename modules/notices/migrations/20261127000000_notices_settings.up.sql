-- The notices a workspace sends (no row: every kind, with the default
-- days), and each contract's own choices (NULL: as the workspace).
CREATE TABLE notice_settings (
    workspace_id BIGINT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    rent_call BOOLEAN NOT NULL,
    rent_call_days INTEGER NOT NULL,
    reminder BOOLEAN NOT NULL,
    receipt BOOLEAN NOT NULL,
    contract_end BOOLEAN NOT NULL,
    contract_end_days INTEGER NOT NULL,
    rent_change BOOLEAN NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE TABLE contract_notice_settings (
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY REFERENCES contracts (id) ON DELETE CASCADE,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    rent_call BOOLEAN,
    reminder BOOLEAN,
    receipt BOOLEAN,
    contract_end BOOLEAN,
    rent_change BOOLEAN,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX contract_notice_settings_workspace ON contract_notice_settings (workspace_id);
