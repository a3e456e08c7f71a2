CREATE TABLE contracts (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    -- The property's owner; only they (or an admin) see or change it.
    owner_id BIGINT NOT NULL REFERENCES users (id),
    -- A property is deleted only without contracts that left draft; its
    -- drafts are deleted with it by the module (properties.Dependent).
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id),
    -- A contragent named by a contract is never deleted.
    tenant_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES contragents (id),
    number VARCHAR(50) NOT NULL,
    -- draft, active or terminated; "ended" is shown for an active contract
    -- whose end_date has passed.
    status VARCHAR(12) NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'terminated')),
    locale VARCHAR(10) NOT NULL,
    -- The terms as a JSON array [{code, value}], values normalised by the
    -- service; kept as text so they read back byte for byte.
    terms TEXT NOT NULL,
    currency CHAR(3) NOT NULL,
    -- Derived from the terms, kept for queries (overlap, lists).
    start_date DATE,
    end_date DATE,
    rent_minor BIGINT,
    deposit_minor BIGINT,
    due_day SMALLINT NOT NULL DEFAULT 1 CHECK (due_day BETWEEN 1 AND 28),
    terminated_on DATE,
    termination_reason VARCHAR(1000) NOT NULL DEFAULT '',
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL,
    CHECK (end_date IS NULL OR start_date IS NULL OR end_date >= start_date)
);
--bun:split
CREATE UNIQUE INDEX contracts_owner_number_key ON contracts (owner_id, number);
--bun:split
CREATE INDEX contracts_property_idx ON contracts (property_id, status);
--bun:split
CREATE INDEX contracts_tenant_idx ON contracts (tenant_id);
