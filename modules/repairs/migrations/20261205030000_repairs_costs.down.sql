DROP INDEX IF EXISTS repair_requests_recharged_idx;
--bun:split
DROP INDEX IF EXISTS repair_requests_recharge_idx;
--bun:split
ALTER TABLE repair_requests DROP COLUMN recharge_on;
--bun:split
ALTER TABLE repair_requests DROP COLUMN recharge_minor;
--bun:split
ALTER TABLE repair_requests DROP COLUMN recharge_charge_id;
--bun:split
ALTER TABLE repair_work_orders DROP COLUMN reminded_on;
--bun:split
ALTER TABLE repair_work_orders DROP COLUMN done_photos;
--bun:split
DROP INDEX IF EXISTS repair_work_orders_bill_idx;
--bun:split
ALTER TABLE repair_work_orders DROP COLUMN bill_id;
--bun:split
ALTER TABLE repair_work_orders DROP COLUMN invoice_document_id;
--bun:split
ALTER TABLE repair_work_orders DROP COLUMN invoice_vat_minor;
