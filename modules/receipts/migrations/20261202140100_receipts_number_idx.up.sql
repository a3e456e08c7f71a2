-- The banking module's matcher finds a receipt by the number a tenant
-- quotes in a transfer.
CREATE INDEX receipts_number_idx ON receipts (workspace_id, number);
