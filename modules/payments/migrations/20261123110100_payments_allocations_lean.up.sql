-- Writing allocations is most of posting a payment spread over many
-- charges; two things each allocation row paid for and nothing used:
-- The index of allocations by charge: no query looks them up by charge
-- (a charge keeps its paid amount; a reversal finds them by payment).
DROP INDEX payment_allocations_charge_idx;
{{if .Postgres}}
--bun:split
-- The foreign key from an allocation to its payment: PostgreSQL ran a
-- check (a lookup and a row lock of the payment) for every allocation row.
-- Allocations are written only with their payment, in the transaction that
-- inserts or reverses it, and payments are never deleted. SQLite keeps the
-- key: its check is a cheap lookup there, and dropping it means a rebuild.
ALTER TABLE payment_allocations DROP CONSTRAINT payment_allocations_payment_id_fkey;
{{end}}
