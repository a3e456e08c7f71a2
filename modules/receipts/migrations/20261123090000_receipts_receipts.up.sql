-- The receipt of a posted payment, issued in the payment's transaction.
-- Never deleted: voided with its payment.
CREATE TABLE receipts (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    owner_id BIGINT NOT NULL,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE RESTRICT,
    payment_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL UNIQUE REFERENCES payments (id),
    year INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    number VARCHAR(11) NOT NULL,
    issued_at {{.Time}} NOT NULL,
    amount_minor BIGINT NOT NULL,
    currency CHAR(3) NOT NULL,
    payer VARCHAR(200) NOT NULL DEFAULT '',
    -- [{charge_name, period, due_date, amount}] as paid when issued.
    lines {{.JSON}} NOT NULL,
    credit_minor BIGINT NOT NULL DEFAULT 0,
    status VARCHAR(10) NOT NULL CHECK (status IN ('issued', 'void')),
    voided_at {{.Time}},
    void_reason VARCHAR(500),
    updated_at {{.Time}} NOT NULL,
    UNIQUE (owner_id, year, seq)
);
--bun:split
CREATE INDEX receipts_property_idx ON receipts (property_id, issued_at, id);
--bun:split
-- The last number given per owner and year. Taking the next one updates
-- this row, which stays locked until the payment's transaction ends: a
-- rolled-back payment gives its number back, so numbers have no gaps.
CREATE TABLE receipt_sequences (
    owner_id BIGINT NOT NULL,
    year INTEGER NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (owner_id, year)
);
