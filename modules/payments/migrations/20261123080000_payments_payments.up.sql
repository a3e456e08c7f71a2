-- A payment a tenant made for a property's charges. Never deleted or
-- rewritten: a mistaken one is reversed (status, who, when, why).
CREATE TABLE payments (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE RESTRICT,
    owner_id BIGINT NOT NULL,
    -- Optional links; checked by the service (the contracts and contragents
    -- modules may be switched off), so no foreign keys.
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    payer_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    currency CHAR(3) NOT NULL,
    paid_on DATE NOT NULL,
    method VARCHAR(20) NOT NULL CHECK (method IN ('bank_transfer', 'cash', 'card', 'other')),
    reference VARCHAR(200) NOT NULL DEFAULT '',
    status VARCHAR(10) NOT NULL CHECK (status IN ('posted', 'reversed')),
    -- What is not allocated to a charge: credit for charges created later.
    unallocated_minor BIGINT NOT NULL CHECK (unallocated_minor >= 0 AND unallocated_minor <= amount_minor),
    created_by BIGINT NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL,
    reversed_at {{.Time}},
    reversed_by BIGINT,
    reversal_reason VARCHAR(500)
);
--bun:split
CREATE INDEX payments_property_idx ON payments (property_id, paid_on, id);
--bun:split
-- Payments with credit left, looked up in every transaction that creates charges.
CREATE INDEX payments_credit_idx ON payments (property_id, status, unallocated_minor);
--bun:split
-- Money of a payment given to a charge. A reversal voids the rows of its
-- payment (voided_at) and never deletes them. charge_id has no foreign
-- key: its check cost PostgreSQL a row lock on every charge of a payment
-- (a third of posting one over 1,000 charges), and the one writer reads
-- each charge in the same transaction under the property's lock; charges
-- are never deleted.
CREATE TABLE payment_allocations (
    payment_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES payments (id),
    charge_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    created_at {{.Time}} NOT NULL,
    voided_at {{.Time}},
    -- A payment gives a charge money once: explicitly, oldest first, or
    -- as credit to a charge created later (a new charge each time).
    PRIMARY KEY (payment_id, charge_id)
);
--bun:split
CREATE INDEX payment_allocations_charge_idx ON payment_allocations (charge_id);
