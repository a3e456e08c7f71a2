
ALTER TABLE receipts DROP COLUMN workspace_id;
