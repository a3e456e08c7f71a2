ALTER TABLE documents DROP COLUMN shared_with_tenant;
