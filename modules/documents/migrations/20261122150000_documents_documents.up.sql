CREATE TABLE documents (
    -- The id is also the blob's key in the storage.
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    -- A property is deleted with its documents (rows here, then blobs).
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    -- The contract the document belongs to. No foreign key yet: the
    -- contracts module does not exist; it will check the id once it does.
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    title VARCHAR(200) NOT NULL,
    category VARCHAR(20) NOT NULL CHECK (category IN ('contract', 'invoice', 'receipt', 'photo', 'certificate', 'other')),
    filename VARCHAR(255) NOT NULL,
    content_type VARCHAR(100) NOT NULL,
    size BIGINT NOT NULL CHECK (size > 0),
    sha256 CHAR(64) NOT NULL,
    uploaded_by BIGINT NOT NULL REFERENCES users (id),
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
-- Lists are per property in id (= creation) order, filtered by category or contract.
CREATE INDEX documents_property_idx ON documents (property_id, id);
--bun:split
CREATE INDEX documents_contract_idx ON documents (property_id, contract_id);
