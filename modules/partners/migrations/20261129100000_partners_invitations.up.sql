-- A partner's invitations, each for one person: by email, or a code the
-- partner shares. A registration with the code links the new account
-- (registered); the first paid invoice of its workspace converts it and
-- credits the partner's workspace once.
CREATE TABLE partner_invitations (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    partner_user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    partner_workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    email VARCHAR(254),
    code VARCHAR(20) NOT NULL UNIQUE,
    status VARCHAR(20) NOT NULL,
    invitee_user_id BIGINT UNIQUE REFERENCES users (id) ON DELETE SET NULL,
    created_at {{.Time}} NOT NULL,
    registered_at {{.Time}},
    converted_at {{.Time}}
);
--bun:split
CREATE INDEX partner_invitations_partner ON partner_invitations (partner_workspace_id, id);
--bun:split
CREATE INDEX partner_invitations_email ON partner_invitations (email);
