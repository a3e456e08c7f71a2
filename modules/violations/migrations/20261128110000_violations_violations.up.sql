CREATE TABLE violations (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    -- The agreement block (a term of the contract) breached, '' for none.
    code VARCHAR(100) NOT NULL DEFAULT '',
    occurred_on DATE NOT NULL,
    description TEXT NOT NULL,
    -- JSON array of document ids of the property.
    evidence TEXT NOT NULL DEFAULT '[]',
    status VARCHAR(20) NOT NULL CHECK (status IN ('open', 'acknowledged', 'disputed', 'resolved', 'withdrawn')),
    -- The fine charged (a charge of kind fine, modules/expenses), if any.
    fine_charge_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    fine_minor BIGINT CHECK (fine_minor > 0),
    note TEXT NOT NULL DEFAULT '',
    created_by BIGINT NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX violations_property_idx ON violations (property_id, id);
--bun:split
CREATE INDEX violations_property_status_idx ON violations (property_id, status, id);
--bun:split
CREATE INDEX violations_contract_idx ON violations (contract_id, id);
