-- Whether the account holder lets as a natural person or as a company (a
-- société, GmbH, ...): French law gives a lease by a company landlord a
-- term of six years instead of three (loi 89-462 art. 10, platform/law).
-- Empty means natural_person, so rows written by code that does not know
-- the column stay valid.
ALTER TABLE users ADD COLUMN landlord_type VARCHAR(20) NOT NULL DEFAULT '' CHECK (landlord_type IN ('', 'natural_person', 'company'));
