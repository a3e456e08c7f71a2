CREATE TABLE assets (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    name VARCHAR(200) NOT NULL,
    category VARCHAR(50) NOT NULL DEFAULT '',
    quantity INTEGER NOT NULL CHECK (quantity >= 1),
    condition VARCHAR(10) NOT NULL CHECK (condition IN ('new', 'good', 'fair', 'poor', 'broken')),
    -- Cents of the property's currency; NULL: no value recorded.
    value_minor BIGINT CHECK (value_minor >= 0),
    serial VARCHAR(100) NOT NULL DEFAULT '',
    -- JSON array of document ids (modules/documents) of the property.
    photos TEXT NOT NULL DEFAULT '[]',
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX assets_property_idx ON assets (property_id, id);
--bun:split
CREATE INDEX assets_property_category_idx ON assets (property_id, category, id);
--bun:split
CREATE INDEX assets_property_condition_idx ON assets (property_id, condition, id);
--bun:split
CREATE TABLE inspections (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    kind VARCHAR(10) NOT NULL CHECK (kind IN ('check_in', 'check_out')),
    inspected_on DATE NOT NULL,
    notes TEXT NOT NULL DEFAULT '',
    -- JSON: photos (document ids), items (asset, condition, notes),
    -- readings (counter, reading id, value) as recorded.
    photos TEXT NOT NULL DEFAULT '[]',
    items TEXT NOT NULL DEFAULT '[]',
    readings TEXT NOT NULL DEFAULT '[]',
    created_by BIGINT NOT NULL,
    created_at {{.Time}} NOT NULL
);
--bun:split
-- One check-in and one check-out per contract.
CREATE UNIQUE INDEX inspections_contract_kind_key ON inspections (contract_id, kind);
--bun:split
CREATE INDEX inspections_property_idx ON inspections (property_id, id);
