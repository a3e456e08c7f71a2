CREATE TABLE compensations (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    kind VARCHAR(30) NOT NULL CHECK (kind IN ('repair_by_tenant', 'rent_reduction', 'deposit_refund', 'overpayment_refund', 'other')),
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    currency CHAR(3) NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    status VARCHAR(20) NOT NULL CHECK (status IN ('pending', 'credited', 'paid_out', 'cancelled', 'reversed')),
    -- credited: the payment (modules/payments) that carries the credit.
    payment_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    -- paid_out: how, with what reference, on which day.
    method VARCHAR(20),
    reference VARCHAR(200),
    paid_on DATE,
    -- cancelled or reversed: why.
    reason TEXT NOT NULL DEFAULT '',
    settlement_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    created_by BIGINT NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX compensations_property_idx ON compensations (property_id, id);
--bun:split
CREATE INDEX compensations_property_status_idx ON compensations (property_id, status, id);
--bun:split
CREATE INDEX compensations_contract_idx ON compensations (contract_id, id);
--bun:split
CREATE TABLE deposit_settlements (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    currency CHAR(3) NOT NULL,
    ended_on DATE NOT NULL,
    settled_on DATE NOT NULL,
    deposit_held_minor BIGINT NOT NULL CHECK (deposit_held_minor >= 0),
    owed_minor BIGINT NOT NULL CHECK (owed_minor >= 0),
    deductions_minor BIGINT NOT NULL CHECK (deductions_minor >= 0),
    applied_minor BIGINT NOT NULL CHECK (applied_minor >= 0),
    refund_minor BIGINT NOT NULL CHECK (refund_minor >= 0),
    still_owed_minor BIGINT NOT NULL CHECK (still_owed_minor >= 0),
    -- JSON array of {reason, amount, evidence}.
    deductions TEXT NOT NULL DEFAULT '[]',
    applied_payment_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    compensation_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    deadline DATE NOT NULL,
    statutory BOOLEAN NOT NULL,
    -- NULL when the contract lacks a check-in or check-out.
    matching BOOLEAN,
    created_by BIGINT NOT NULL,
    created_at {{.Time}} NOT NULL
);
--bun:split
-- One settlement per contract.
CREATE UNIQUE INDEX deposit_settlements_contract_key ON deposit_settlements (contract_id);
--bun:split
CREATE INDEX deposit_settlements_property_idx ON deposit_settlements (property_id, id);
