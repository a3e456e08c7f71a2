-- A thread is the conversation with one counterparty: per contract (its
-- tenant), or per property and contragent when no contract is named. Its
-- token is the local part of the reply address (reply+<token>@domain).
CREATE TABLE message_threads (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} REFERENCES contracts (id) ON DELETE CASCADE,
    contragent_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES contragents (id) ON DELETE CASCADE,
    token VARCHAR(40) NOT NULL,
    created_at {{.Time}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX message_threads_token_key ON message_threads (token);
--bun:split
CREATE UNIQUE INDEX message_threads_contract_key ON message_threads (contract_id) WHERE contract_id IS NOT NULL;
--bun:split
CREATE UNIQUE INDEX message_threads_contragent_key ON message_threads (property_id, contragent_id) WHERE contract_id IS NULL;
--bun:split
CREATE TABLE messages (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    thread_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES message_threads (id) ON DELETE CASCADE,
    -- Copied from the thread, for the property's list and its filters.
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    contragent_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    -- The author: a user (the landlord's side, or a tenant in the portal)
    -- and/or the contragent (a reply by mail, a tenant's portal message).
    author_user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    author_contragent_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    direction VARCHAR(8) NOT NULL CHECK (direction IN ('out', 'in', 'note')),
    channel VARCHAR(8) CHECK (channel IN ('email', 'portal', 'post')),
    subject VARCHAR(300) NOT NULL,
    body TEXT NOT NULL,
    -- JSON array of document ids of the property.
    attachments TEXT NOT NULL,
    -- The address an email went to, or came from.
    address VARCHAR(254) NOT NULL,
    delivery VARCHAR(8) CHECK (delivery IN ('queued', 'sent', 'failed', 'bounced')),
    last_error VARCHAR(1000),
    attempts INTEGER NOT NULL,
    tracking_number VARCHAR(64),
    -- The RFC 5322 Message-ID, without brackets.
    message_id VARCHAR(255) NOT NULL,
    -- An automatic notice's key (kind:charge-or-contract:step): each is
    -- created at most once.
    notice_key VARCHAR(200),
    sent_at {{.Time}},
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX messages_property_idx ON messages (property_id, created_at, id);
--bun:split
CREATE INDEX messages_thread_idx ON messages (thread_id, created_at, id);
--bun:split
CREATE INDEX messages_contract_idx ON messages (contract_id, created_at, id);
--bun:split
CREATE UNIQUE INDEX messages_notice_key ON messages (notice_key) WHERE notice_key IS NOT NULL;
--bun:split
-- A reply delivered twice (the mail server retried) is filed once.
CREATE UNIQUE INDEX messages_inbound_key ON messages (thread_id, message_id) WHERE direction = 'in' AND channel = 'email';
