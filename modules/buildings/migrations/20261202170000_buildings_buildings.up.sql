-- A building groups units (properties) under one address. The unit data
-- the operating-cost statement needs live in building_units, beside the
-- properties table, so today's properties stay as they were.
CREATE TABLE buildings (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    owner_id BIGINT NOT NULL REFERENCES users (id),
    name VARCHAR(200) NOT NULL,
    address VARCHAR(500) NOT NULL DEFAULT '',
    postal_code VARCHAR(20) NOT NULL DEFAULT '',
    city VARCHAR(200) NOT NULL DEFAULT '',
    country_code CHAR(2) NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
-- The workspace's list, in creation order (ids are UUIDv7).
CREATE INDEX buildings_workspace_idx ON buildings (workspace_id, id);
--bun:split
-- A property belongs to at most one building; deleting the property or
-- the building takes its unit data with it.
CREATE TABLE building_units (
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY REFERENCES properties (id) ON DELETE CASCADE,
    building_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES buildings (id) ON DELETE CASCADE,
    rooms INTEGER CHECK (rooms >= 0),
    floor INTEGER,
    -- The unit's share of the building (MEA, tantièmes) in ten-thousandths.
    share_e4 BIGINT CHECK (share_e4 >= 0),
    heating_type VARCHAR(20) NOT NULL DEFAULT 'unknown',
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX building_units_building_idx ON building_units (building_id, property_id);
--bun:split
-- How many persons live under a contract from a day on: each row holds
-- until the next one of the contract.
CREATE TABLE contract_households (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES contracts (id) ON DELETE CASCADE,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    persons INTEGER NOT NULL CHECK (persons >= 0),
    from_date DATE NOT NULL,
    created_at {{.Time}} NOT NULL,
    UNIQUE (contract_id, from_date)
);
