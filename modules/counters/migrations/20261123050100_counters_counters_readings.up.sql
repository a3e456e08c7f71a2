CREATE TABLE counters (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    -- A property without charges is deleted with its counters (the module's
    -- Dependent does it; the cascade keeps the schema consistent when the
    -- module is switched off).
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    -- Who pays the charges billed from the readings: a rental contract of
    -- the same property, or NULL.
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    kind VARCHAR(20) NOT NULL CHECK (kind IN ('electricity', 'gas', 'water_cold', 'water_hot', 'heating', 'other')),
    unit VARCHAR(10) NOT NULL CHECK (unit IN ('kWh', 'm3', 'Gcal', 'unit')),
    serial VARCHAR(100) NOT NULL DEFAULT '',
    name VARCHAR(200) NOT NULL,
    -- Millionths of the currency per unit; NULL: readings bill nothing.
    tariff_micro BIGINT CHECK (tariff_micro > 0),
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX counters_property_idx ON counters (property_id, id);
--bun:split
CREATE TABLE counter_readings (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    counter_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES counters (id) ON DELETE CASCADE,
    read_on DATE NOT NULL,
    -- Thousandths of the counter's unit.
    value_milli BIGINT NOT NULL CHECK (value_milli >= 0),
    -- value minus the previous reading's value; NULL for the first reading.
    consumption_milli BIGINT CHECK (consumption_milli >= 0),
    -- The charge billed for the consumption, when one was (the charge
    -- keeps reading_id; the charge outlives a deleted reading).
    charge_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    created_by BIGINT NOT NULL,
    created_at {{.Time}} NOT NULL
);
--bun:split
-- Readings of a counter are strictly ordered by date: one per day.
CREATE UNIQUE INDEX counter_readings_counter_date_key ON counter_readings (counter_id, read_on);
