ALTER TABLE properties DROP COLUMN archived_at;
