-- A landlord's invitation of a contragent to the tenant portal. Only the
-- SHA-256 of the token is kept; the token itself is only in the mail.
CREATE TABLE portal_invitations (
    id {{.ID}},
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    contragent_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES contragents (id) ON DELETE CASCADE,
    email VARCHAR(254) NOT NULL,
    token_hash CHAR(64) NOT NULL,
    status VARCHAR(16) NOT NULL CHECK (status IN ('pending', 'accepted', 'revoked')),
    expires_at {{.Time}} NOT NULL,
    invited_by BIGINT NOT NULL REFERENCES users (id),
    accepted_by BIGINT REFERENCES users (id),
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX portal_invitations_token_key ON portal_invitations (token_hash);
--bun:split
CREATE INDEX portal_invitations_contragent_idx ON portal_invitations (contragent_id, status);
