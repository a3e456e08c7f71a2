CREATE TABLE users (
    id {{.ID}},
    email VARCHAR(254) NOT NULL,
    name VARCHAR(100) NOT NULL,
    phone VARCHAR(16),
    password_hash VARCHAR(255) NOT NULL,
    locale VARCHAR(8) NOT NULL DEFAULT 'en',
    country_code CHAR(2) NOT NULL,
    -- Comma-separated role names: one row read answers every token check.
    roles VARCHAR(255) NOT NULL DEFAULT 'ROLE_USER',
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    token_version INTEGER NOT NULL DEFAULT 0,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX users_email_key ON users (email);
--bun:split
CREATE UNIQUE INDEX users_phone_key ON users (phone);
