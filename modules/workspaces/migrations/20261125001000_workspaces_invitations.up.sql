CREATE TABLE workspace_invitations (
    id {{.ID}},
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- Normalised (trimmed, lower-case), as users.email is.
    email VARCHAR(254) NOT NULL,
    role VARCHAR(16) NOT NULL CHECK (role IN ('owner', 'manager', 'accountant', 'viewer')),
    -- Expired is not stored: a pending invitation past expires_at reads as
    -- expired.
    status VARCHAR(16) NOT NULL CHECK (status IN ('pending', 'accepted', 'revoked')),
    -- Hex SHA-256 of the token; the token itself is only in the mail.
    token_hash VARCHAR(64) NOT NULL,
    invited_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    accepted_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    expires_at {{.Time}} NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
-- Accepting looks the token up by its hash.
CREATE UNIQUE INDEX workspace_invitations_token_key ON workspace_invitations (token_hash);
--bun:split
-- The owner's list, newest first.
CREATE INDEX workspace_invitations_workspace_idx ON workspace_invitations (workspace_id, created_at);
--bun:split
-- One pending invitation per address and workspace: a new one replaces it.
CREATE UNIQUE INDEX workspace_invitations_pending_key ON workspace_invitations (workspace_id, email) WHERE status = 'pending';
