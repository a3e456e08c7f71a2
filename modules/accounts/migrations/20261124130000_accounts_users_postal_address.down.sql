ALTER TABLE users DROP COLUMN address_country_code;
--bun:split
ALTER TABLE users DROP COLUMN address_city;
--bun:split
ALTER TABLE users DROP COLUMN address_postal_code;
--bun:split
ALTER TABLE users DROP COLUMN address_line;
