-- What payments (modules/payments) allocated to a charge. The status column
-- keeps unpaid / paid / cancelled; partially_paid is an unpaid charge with
-- paid_amount_minor > 0 (the API shows it so), which spares SQLite a table
-- rebuild for a new CHECK.
ALTER TABLE charges ADD COLUMN paid_amount_minor BIGINT NOT NULL DEFAULT 0;
--bun:split
-- regular, or penalty: a late fee (modules/penalties) for the charge
-- penalty_for, at most one per charge.
ALTER TABLE charges ADD COLUMN kind VARCHAR(10) NOT NULL DEFAULT 'regular';
--bun:split
ALTER TABLE charges ADD COLUMN penalty_for {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
CREATE UNIQUE INDEX charges_penalty_for_key ON charges (penalty_for);
--bun:split
-- Charges entered as paid before payments existed count as paid in full.
UPDATE charges SET paid_amount_minor = amount_minor WHERE status = 'paid';
{{if .Postgres}}
--bun:split
-- A charge is updated when money is allocated to it: room left in each
-- page lets PostgreSQL update it in place (HOT), without touching the
-- table's eight indexes, which are not on the changed columns.
ALTER TABLE charges SET (fillfactor = 80);
--bun:split
ALTER TABLE charges ADD CONSTRAINT charges_paid_amount_check CHECK (paid_amount_minor >= 0 AND paid_amount_minor <= amount_minor);
{{end}}
