-- The contract an expense or charge belongs to (modules/contracts); NULL for
-- everything else. No foreign key: the contracts module depends on this one,
-- not the other way round, and its table may be created later.
ALTER TABLE expenses ADD COLUMN contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
ALTER TABLE charges ADD COLUMN contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
CREATE INDEX expenses_contract_idx ON expenses (contract_id);
--bun:split
CREATE INDEX charges_contract_idx ON charges (contract_id);
