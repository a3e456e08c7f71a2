-- One subscription per workspace (made when billing first sees the
-- workspace), its invoices with their lines, the gap-free numbers per
-- issuer and year, credits waiting for the next invoice, and the Stripe
-- events applied (each once).
CREATE TABLE billing_subscriptions (
    workspace_id BIGINT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    plan VARCHAR(20) NOT NULL,
    status VARCHAR(20) NOT NULL,
    trial_ends_at {{.Time}} NOT NULL,
    billed_from {{.Time}},
    country VARCHAR(2),
    vat_id VARCHAR(20),
    company VARCHAR(200),
    customer_id VARCHAR(255),
    payment_method_id VARCHAR(255),
    card VARCHAR(60),
    past_due_since {{.Time}},
    read_only BOOLEAN NOT NULL DEFAULT FALSE,
    canceled_at {{.Time}},
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX billing_subscriptions_read_only ON billing_subscriptions (read_only, workspace_id);
--bun:split
CREATE TABLE billing_invoices (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    number VARCHAR(40) NOT NULL,
    issuer VARCHAR(40) NOT NULL,
    year INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    period VARCHAR(7) NOT NULL,
    status VARCHAR(20) NOT NULL,
    currency VARCHAR(3) NOT NULL,
    net BIGINT NOT NULL,
    credit BIGINT NOT NULL,
    vat_rate VARCHAR(8) NOT NULL,
    vat BIGINT NOT NULL,
    total BIGINT NOT NULL,
    country VARCHAR(2) NOT NULL,
    vat_id VARCHAR(20),
    reverse_charge BOOLEAN NOT NULL,
    customer VARCHAR(200) NOT NULL,
    payment_intent VARCHAR(255),
    last_event BIGINT NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    reminders INTEGER NOT NULL DEFAULT 0,
    issued_at {{.Time}} NOT NULL,
    paid_at {{.Time}},
    UNIQUE (workspace_id, period),
    UNIQUE (issuer, year, seq)
);
--bun:split
CREATE INDEX billing_invoices_workspace ON billing_invoices (workspace_id, id);
--bun:split
CREATE INDEX billing_invoices_open ON billing_invoices (status, workspace_id);
--bun:split
CREATE TABLE billing_invoice_lines (
    id {{.ID}},
    invoice_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES billing_invoices (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    description VARCHAR(300) NOT NULL,
    period VARCHAR(7) NOT NULL,
    quantity INTEGER NOT NULL,
    unit_price BIGINT NOT NULL,
    amount BIGINT NOT NULL,
    UNIQUE (invoice_id, position)
);
--bun:split
CREATE TABLE billing_counters (
    issuer VARCHAR(40) NOT NULL,
    year INTEGER NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (issuer, year)
);
--bun:split
CREATE TABLE billing_credits (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    amount BIGINT NOT NULL,
    reason VARCHAR(200) NOT NULL,
    source VARCHAR(100) NOT NULL UNIQUE,
    invoice_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} REFERENCES billing_invoices (id) ON DELETE SET NULL,
    created_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX billing_credits_workspace ON billing_credits (workspace_id, invoice_id);
--bun:split
CREATE TABLE billing_events (
    event_id VARCHAR(255) PRIMARY KEY,
    type VARCHAR(100) NOT NULL,
    received_at {{.Time}} NOT NULL
);
