-- Whether the tenant portal (modules/tenancy) shows the document to the
-- tenant: a landlord's files stay theirs unless they share one. A constant
-- default rewrites no rows on either engine.
ALTER TABLE documents ADD COLUMN shared_with_tenant BOOLEAN NOT NULL DEFAULT FALSE;
