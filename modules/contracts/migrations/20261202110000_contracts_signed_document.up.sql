-- The lease as printed when the contract was activated, kept as a document
-- of the property (modules/documents) with the SHA-256 of its bytes: the
-- print form of a contract that left draft serves those bytes, whatever
-- changes later. NULL until the PDF is stored (at activation, or on the
-- first print of a contract activated before this column existed). No
-- foreign key: the documents module depends on contracts, not the reverse.
ALTER TABLE contracts ADD COLUMN signed_document_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
ALTER TABLE contracts ADD COLUMN signed_sha256 CHAR(64);
--bun:split
ALTER TABLE contracts ADD COLUMN signed_at {{.Time}};
--bun:split
-- When the termination was recorded: the date of its confirmation letter
-- (modules/notices, printforms). NULL for contracts terminated before.
ALTER TABLE contracts ADD COLUMN terminated_at {{.Time}};
