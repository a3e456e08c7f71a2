ALTER TABLE users DROP COLUMN landlord_type;
