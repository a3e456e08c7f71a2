-- The accounts a workspace is paid to (LANDLORD-CORE "Where to pay"). The
-- IBAN is stored normalised (upper case, no spaces) after its mod-97 and
-- length checks; a contract names one of them (contracts.bank_account_id).
CREATE TABLE bank_accounts (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    -- EPC069-12 allows 70 characters for the beneficiary's name.
    holder VARCHAR(70) NOT NULL,
    iban VARCHAR(34) NOT NULL,
    bic VARCHAR(11) NOT NULL DEFAULT '',
    bank_name VARCHAR(100) NOT NULL DEFAULT '',
    label VARCHAR(100) NOT NULL DEFAULT '',
    currency CHAR(3) NOT NULL,
    is_default BOOLEAN NOT NULL DEFAULT FALSE,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
-- One account per IBAN in a workspace; the list reads (workspace_id, id).
CREATE UNIQUE INDEX bank_accounts_iban_idx ON bank_accounts (workspace_id, iban);
--bun:split
CREATE INDEX bank_accounts_workspace_idx ON bank_accounts (workspace_id, id);
--bun:split
-- At most one default per workspace, whatever two requests do at once.
CREATE UNIQUE INDEX bank_accounts_default_idx ON bank_accounts (workspace_id) WHERE is_default;
