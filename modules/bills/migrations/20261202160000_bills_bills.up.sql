-- What the landlord pays: a supplier's bill for a property. The amount is
-- gross (what is paid); vat_minor is the VAT it contains. Deleting the
-- property or the supplier is refused while a bill names them; a deleted
-- document leaves the bill without its voucher.
CREATE TABLE bills (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    owner_id BIGINT NOT NULL REFERENCES users (id),
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id),
    supplier_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES contragents (id),
    bill_date DATE NOT NULL,
    due_date DATE NOT NULL,
    paid_on DATE,
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    currency CHAR(3) NOT NULL,
    vat_minor BIGINT NOT NULL DEFAULT 0 CHECK (vat_minor >= 0 AND vat_minor <= amount_minor),
    -- The VAT rate in hundredths of a percent (1900 = 19 %) when the bill
    -- was entered with a rate; NULL when with an amount.
    vat_rate_centi BIGINT CHECK (vat_rate_centi >= 0 AND vat_rate_centi <= 10000),
    category VARCHAR(20) NOT NULL,
    operating_category VARCHAR(30),
    allocable BOOLEAN NOT NULL DEFAULT FALSE,
    document_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} REFERENCES documents (id) ON DELETE SET NULL,
    note VARCHAR(2000) NOT NULL DEFAULT '',
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL,
    CHECK (due_date >= bill_date)
);
--bun:split
-- The workspace's list, newest bill first, and its filters by date.
CREATE INDEX bills_workspace_idx ON bills (workspace_id, bill_date, id);
--bun:split
-- A property's list, and what the reports sum per property.
CREATE INDEX bills_property_idx ON bills (property_id, bill_date, id);
--bun:split
-- A supplier's or a document's deletion finds its bills.
CREATE INDEX bills_supplier_idx ON bills (supplier_id);
--bun:split
CREATE INDEX bills_document_idx ON bills (document_id);
