ALTER TABLE contracts DROP COLUMN late_fee_base;
--bun:split
ALTER TABLE contracts DROP COLUMN allocation_order;
