-- The lines of imported bank statements (LANDLORD-CORE section 4). A line
-- is stored once per account and entry key (the bank's reference, else a
-- hash of its contents and position), which makes every import
-- idempotent: the unique index, not a read before the write, decides, so
-- two imports of one file at once store one set of lines.
CREATE TABLE bank_lines (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    -- Deleting an account deletes what was imported into it.
    bank_account_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES bank_accounts (id) ON DELETE CASCADE,
    entry_key VARCHAR(100) NOT NULL,
    format VARCHAR(10) NOT NULL,
    booking_date DATE NOT NULL,
    value_date DATE,
    -- Signed, in cents: credits above zero, debits below.
    amount_minor BIGINT NOT NULL,
    currency CHAR(3) NOT NULL,
    counterparty_name VARCHAR(140) NOT NULL DEFAULT '',
    counterparty_iban VARCHAR(34) NOT NULL DEFAULT '',
    remittance VARCHAR(1000) NOT NULL DEFAULT '',
    bank_reference VARCHAR(100) NOT NULL DEFAULT '',
    -- A returned direct debit (CAMT reversal or return reason, MT940 RC/RD
    -- or a return GVC) and the bank's reason code.
    is_return BOOLEAN NOT NULL DEFAULT FALSE,
    return_code VARCHAR(10) NOT NULL DEFAULT '',
    -- posted, suggested, unmatched, ignored, debit.
    status VARCHAR(12) NOT NULL,
    -- The matcher's reason codes, a JSON array of strings.
    reasons {{.JSON}} NOT NULL,
    -- The contract posted to or suggested, the property it belongs to and
    -- the payment posted (or, for a return, reversed). Plain ids: a line
    -- outlives what it points at, as a bank statement does.
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    payment_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    -- The line whose payment this return reversed (set on the original).
    returned_by {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX bank_lines_entry_idx ON bank_lines (bank_account_id, entry_key);
--bun:split
-- The list reads the workspace's lines newest first, by booking date.
CREATE INDEX bank_lines_list_idx ON bank_lines (workspace_id, booking_date, id);
--bun:split
CREATE INDEX bank_lines_status_idx ON bank_lines (workspace_id, status, booking_date, id);
--bun:split
-- Payer IBANs learnt from confirmed matches: a later line from the IBAN
-- goes to the contract by itself.
CREATE TABLE bank_payer_ibans (
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    iban VARCHAR(34) NOT NULL,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    created_at {{.Time}} NOT NULL,
    PRIMARY KEY (workspace_id, iban, contract_id)
);
--bun:split
-- Saved CSV column mappings of an account.
CREATE TABLE bank_csv_mappings (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    bank_account_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES bank_accounts (id) ON DELETE CASCADE,
    name VARCHAR(100) NOT NULL,
    -- The mapping (CSVMapping's fields) as JSON.
    spec {{.JSON}} NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX bank_csv_mappings_account_idx ON bank_csv_mappings (bank_account_id, id);
