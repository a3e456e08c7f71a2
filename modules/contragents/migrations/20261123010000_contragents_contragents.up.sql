CREATE TABLE contragents (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    -- The owner alone (or an admin) may see or change the contragent.
    owner_id BIGINT NOT NULL REFERENCES users (id),
    kind VARCHAR(10) NOT NULL,
    -- A JSON array of roles in the fixed order tenant, guarantor, provider,
    -- e.g. ["tenant","provider"]; the role filter matches the quoted name.
    roles VARCHAR(100) NOT NULL,
    name VARCHAR(200) NOT NULL,
    -- lower-cased by the service (Go's Unicode rules), so the search is the
    -- same on both engines: name_search LIKE lower(term).
    name_search TEXT NOT NULL,
    email VARCHAR(254) NOT NULL DEFAULT '',
    phone VARCHAR(16) NOT NULL DEFAULT '',
    address VARCHAR(500) NOT NULL DEFAULT '',
    tax_id VARCHAR(50) NOT NULL DEFAULT '',
    notes VARCHAR(2000) NOT NULL DEFAULT '',
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
-- Lists are per owner in id (= creation) order.
CREATE INDEX contragents_owner_idx ON contragents (owner_id, id);
