-- The lease as printed when the contract was activated, kept as a document
-- of the property (modules/documents) with the SHA-256 of its bytes: the
-- print form of a contract that left draft serves those bytes, whatever
-- changes later. NULL until the PDF is stored (at activation, or on the
-- first print of a contract activated before this column existed). No
-- foreign key: the documents module depends on contracts, not the reverse.
ALTER TABLE contracts ADD COLUMN signed_document_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
ALTER TABLE contracts ADD COLUMN signed_sha256 CHAR(64);
--bun:split
ALTER TABLE contracts ADD COLUMN signed_at {{.Time}};
--bun:split
-- When the termination was recorded: the date of its confirmation letter
-- (modules/notices, printforms). NULL for contracts terminated before.
ALTER TABLE contracts ADD COLUMN terminated_at {{.Time}};
--bun:split
-- The yearly interest rate the deposit earns for the tenant (Germany,
-- § 551 Abs. 3 BGB), in ten-thousandths of a percent (0.5 % is 5000),
-- NULL when none is configured: the deposit settlement uses it unless a
-- rate is entered there (modules/compensations).
ALTER TABLE contracts ADD COLUMN deposit_interest_rate_e4 BIGINT CHECK (deposit_interest_rate_e4 IS NULL OR (deposit_interest_rate_e4 >= 0 AND deposit_interest_rate_e4 <= 200000));
--bun:split
-- Who gave notice (landlord, tenant, or a mutual agreement; '' when not
-- said) and the day the tenant's notice reached the landlord: stated in
-- the confirmation letter.
ALTER TABLE contracts ADD COLUMN terminated_by VARCHAR(10) NOT NULL DEFAULT '' CHECK (terminated_by IN ('', 'landlord', 'tenant', 'mutual'));
--bun:split
ALTER TABLE contracts ADD COLUMN notice_received_on DATE;
