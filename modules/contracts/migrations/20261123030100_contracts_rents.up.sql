-- The rent history of a contract: one row per rent expense, from activation
-- and each indexation (POST /contracts/{id}/rent).
CREATE TABLE contract_rents (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES contracts (id) ON DELETE CASCADE,
    from_date DATE NOT NULL,
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    expense_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    created_at {{.Time}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX contract_rents_from_key ON contract_rents (contract_id, from_date);
