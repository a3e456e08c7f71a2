-- The provider's invoice: its VAT, its file (a document of the property)
-- and the bill it became (modules/bills), made once, with the done.
ALTER TABLE repair_work_orders ADD COLUMN invoice_vat_minor BIGINT CHECK (invoice_vat_minor >= 0);
--bun:split
ALTER TABLE repair_work_orders ADD COLUMN invoice_document_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
ALTER TABLE repair_work_orders ADD COLUMN bill_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
-- One bill per work order, whatever retries or races do.
CREATE UNIQUE INDEX repair_work_orders_bill_idx ON repair_work_orders (bill_id);
--bun:split
-- JSON array of the document ids of the provider's photos of the job.
ALTER TABLE repair_work_orders ADD COLUMN done_photos TEXT NOT NULL DEFAULT '[]';
--bun:split
-- The last day the daily run reminded of the order while it was overdue.
ALTER TABLE repair_work_orders ADD COLUMN reminded_on DATE;
--bun:split
-- What the tenant is charged for the repair (modules/expenses), the day
-- of the repair the yearly limit counts it in, once per request.
ALTER TABLE repair_requests ADD COLUMN recharge_charge_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
ALTER TABLE repair_requests ADD COLUMN recharge_minor BIGINT CHECK (recharge_minor > 0);
--bun:split
ALTER TABLE repair_requests ADD COLUMN recharge_on DATE;
--bun:split
CREATE UNIQUE INDEX repair_requests_recharge_idx ON repair_requests (recharge_charge_id);
--bun:split
CREATE INDEX repair_requests_recharged_idx ON repair_requests (contract_id, recharge_on);
