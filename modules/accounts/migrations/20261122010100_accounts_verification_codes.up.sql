-- One pending registration per email: a new code replaces the old one.
-- Only the HMAC of the code is kept. Times are Unix milliseconds so that both
-- engines compare them as numbers.
CREATE TABLE verification_codes (
    email VARCHAR(254) NOT NULL PRIMARY KEY,
    code_hash VARCHAR(64) NOT NULL,
    name VARCHAR(100) NOT NULL,
    locale VARCHAR(8),
    attempts INTEGER NOT NULL DEFAULT 0,
    expires_ms BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);
