CREATE TABLE countries (
    id {{.ID}},
    code CHAR(2) NOT NULL,
    -- Localized text map {"en": "Germany", "de": "Deutschland", ...}.
    name {{.JSON}} NOT NULL,
    phone_code VARCHAR(8) NOT NULL,
    currency CHAR(3) NOT NULL,
    is_active BOOLEAN NOT NULL DEFAULT TRUE
);
--bun:split
CREATE UNIQUE INDEX countries_code_key ON countries (code);
--bun:split
CREATE TABLE languages (
    id {{.ID}},
    code VARCHAR(8) NOT NULL,
    name VARCHAR(100) NOT NULL,
    native_name VARCHAR(100) NOT NULL,
    is_active BOOLEAN NOT NULL DEFAULT FALSE
);
--bun:split
CREATE UNIQUE INDEX languages_code_key ON languages (code);
