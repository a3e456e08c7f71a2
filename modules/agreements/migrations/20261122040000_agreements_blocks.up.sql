CREATE TABLE agreement_blocks (
    id {{.ID}},
    -- Upper-case, so the unique key also makes codes unique case-insensitively.
    code VARCHAR(64) NOT NULL CHECK (code = UPPER(code)),
    data_type VARCHAR(8) NOT NULL CHECK (data_type IN ('int', 'float', 'bool', 'text', 'date')),
    -- NULL: a generic block, valid in every country.
    country_code CHAR(2),
    -- Localized text maps {"en": "...", "de": "...", ...}.
    name {{.JSON}} NOT NULL,
    description {{.JSON}} NOT NULL,
    image_url VARCHAR(2048),
    -- TRUE for the shipped catalogue (the seed keeps it at the shipped text),
    -- FALSE for blocks an operator imported.
    is_system BOOLEAN NOT NULL,
    sort_order INTEGER NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX agreement_blocks_code_key ON agreement_blocks (code);
--bun:split
-- One row whose version rises with every change of agreement_blocks, so a
-- running instance learns of an import by reading one integer.
CREATE TABLE agreement_blocks_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
--bun:split
INSERT INTO agreement_blocks_version (id, version) VALUES (1, 0);
