CREATE TABLE workspaces (
    id {{.ID}},
    name VARCHAR(100) NOT NULL,
    -- The user whose own workspace this is (registration makes it): the
    -- landlord named on its leases and receipts and the owner_id of its
    -- records. One own workspace per user.
    landlord_id BIGINT NOT NULL REFERENCES users (id),
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX workspaces_landlord_key ON workspaces (landlord_id);
--bun:split
CREATE TABLE workspace_members (
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role VARCHAR(16) NOT NULL CHECK (role IN ('owner', 'manager', 'accountant', 'viewer')),
    -- The workspace a request without X-Workspace-ID acts in; at most one
    -- per user.
    is_default BOOLEAN NOT NULL DEFAULT FALSE,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);
--bun:split
-- The guard's lookup without a header: the user's default membership first.
CREATE INDEX workspace_members_user_idx ON workspace_members (user_id, is_default, workspace_id);
--bun:split
CREATE UNIQUE INDEX workspace_members_default_key ON workspace_members (user_id) WHERE is_default;
--bun:split
-- Every user of today gets their own workspace, owned by them and their
-- default; their records move into it with the records' own migrations.
INSERT INTO workspaces (name, landlord_id, created_at, updated_at)
SELECT name, id, created_at, created_at FROM users ORDER BY id;
--bun:split
INSERT INTO workspace_members (workspace_id, user_id, role, is_default, created_at, updated_at)
SELECT id, landlord_id, 'owner', TRUE, created_at, created_at FROM workspaces;
