DROP TABLE IF EXISTS repair_work_orders;
--bun:split
DROP TABLE IF EXISTS repair_requests;
