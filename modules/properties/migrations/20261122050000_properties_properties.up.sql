CREATE TABLE properties (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    -- The owner alone (or an admin) may see or change the property.
    owner_id BIGINT NOT NULL REFERENCES users (id),
    name VARCHAR(200) NOT NULL,
    address VARCHAR(500) NOT NULL DEFAULT '',
    city VARCHAR(100) NOT NULL DEFAULT '',
    postal_code VARCHAR(20) NOT NULL DEFAULT '',
    country_code CHAR(2) NOT NULL,
    currency CHAR(3) NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
-- Lists are per owner in id (= creation) order.
CREATE INDEX properties_owner_idx ON properties (owner_id, id);
