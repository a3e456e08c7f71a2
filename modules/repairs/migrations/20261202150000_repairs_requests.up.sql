CREATE TABLE repair_requests (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    -- The contract whose thread hears of every step; NULL for a request a
    -- member recorded for the property alone.
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    -- 'tenant' (the portal) or 'member'.
    source VARCHAR(10) NOT NULL CHECK (source IN ('tenant', 'member')),
    reported_by BIGINT NOT NULL,
    title VARCHAR(200) NOT NULL,
    description TEXT NOT NULL,
    category VARCHAR(20) NOT NULL CHECK (category IN ('plumbing', 'heating', 'electrical', 'appliance', 'windows_doors', 'damp_mould', 'pests', 'other')),
    urgency VARCHAR(10) NOT NULL CHECK (urgency IN ('emergency', 'urgent', 'normal')),
    access_notes TEXT NOT NULL DEFAULT '',
    preferred_times TEXT NOT NULL DEFAULT '',
    -- JSON array of document ids of the property.
    photos TEXT NOT NULL DEFAULT '[]',
    status VARCHAR(10) NOT NULL CHECK (status IN ('reported', 'triaged', 'ordered', 'scheduled', 'done', 'closed', 'rejected')),
    reject_reason TEXT NOT NULL DEFAULT '',
    deadline_at {{.Time}} NOT NULL,
    visit_start {{.Time}},
    visit_end {{.Time}},
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX repair_requests_property_idx ON repair_requests (property_id, id);
--bun:split
CREATE INDEX repair_requests_contract_idx ON repair_requests (contract_id, id);
--bun:split
-- The overdue list: a workspace's open requests by deadline.
CREATE INDEX repair_requests_deadline_idx ON repair_requests (workspace_id, deadline_at, id);
--bun:split
CREATE TABLE repair_work_orders (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    request_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES repair_requests (id) ON DELETE CASCADE,
    provider_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    -- SHA-256 of the provider's link token; the token itself is only in the mail.
    token_hash CHAR(64) NOT NULL UNIQUE,
    expires_at {{.Time}} NOT NULL,
    -- The language the provider is written to in.
    locale VARCHAR(10) NOT NULL,
    status VARCHAR(10) NOT NULL CHECK (status IN ('sent', 'accepted', 'declined', 'done')),
    -- JSON array of {start, end} offered by the provider.
    slots TEXT NOT NULL DEFAULT '[]',
    note TEXT NOT NULL DEFAULT '',
    invoice_minor BIGINT CHECK (invoice_minor >= 0),
    created_by BIGINT NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX repair_work_orders_request_idx ON repair_work_orders (request_id, id);
