{{if .Postgres}}
ALTER TABLE payment_allocations ADD CONSTRAINT payment_allocations_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments (id);
--bun:split
{{end}}
CREATE INDEX payment_allocations_charge_idx ON payment_allocations (charge_id);
