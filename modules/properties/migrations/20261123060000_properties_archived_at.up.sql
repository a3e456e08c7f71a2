-- An archived property keeps its records but takes no new contract
-- (modules/contracts answers 409 property_archived). NULL: not archived.
ALTER TABLE properties ADD COLUMN archived_at {{.Time}};
