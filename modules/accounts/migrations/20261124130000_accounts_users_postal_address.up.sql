-- The account holder's postal address, printed as the landlord's on the
-- contract form (modules/printforms). Empty strings, not NULL, mean "none",
-- as for a property's address; VARCHAR and not CHAR for the country, so an
-- empty one stays empty on PostgreSQL instead of being padded to two spaces.
-- Adding a column with a constant default rewrites no rows on either engine.
ALTER TABLE users ADD COLUMN address_line VARCHAR(500) NOT NULL DEFAULT '';
--bun:split
ALTER TABLE users ADD COLUMN address_postal_code VARCHAR(20) NOT NULL DEFAULT '';
--bun:split
ALTER TABLE users ADD COLUMN address_city VARCHAR(100) NOT NULL DEFAULT '';
--bun:split
ALTER TABLE users ADD COLUMN address_country_code VARCHAR(2) NOT NULL DEFAULT '';
