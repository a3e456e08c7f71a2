ALTER TABLE contracts DROP COLUMN notice_received_on;
--bun:split
ALTER TABLE contracts DROP COLUMN terminated_by;
--bun:split
ALTER TABLE contracts DROP COLUMN deposit_interest_rate_e4;
--bun:split
ALTER TABLE contracts DROP COLUMN terminated_at;
--bun:split
ALTER TABLE contracts DROP COLUMN signed_at;
--bun:split
ALTER TABLE contracts DROP COLUMN signed_sha256;
--bun:split
ALTER TABLE contracts DROP COLUMN signed_document_id;
