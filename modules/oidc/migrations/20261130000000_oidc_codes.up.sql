-- One-time codes the callback hands the web client, exchanged once for a
-- token. Only the HMAC of the code is kept; times are Unix milliseconds so
-- that both engines compare them as numbers.
CREATE TABLE oidc_codes (
    code_hash VARCHAR(64) NOT NULL PRIMARY KEY,
    user_id BIGINT NOT NULL,
    provider VARCHAR(32) NOT NULL,
    expires_ms BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);
--bun:split
CREATE INDEX oidc_codes_expires ON oidc_codes (expires_ms);
