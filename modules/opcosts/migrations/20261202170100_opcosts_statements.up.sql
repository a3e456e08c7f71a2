-- The key each operating-cost category of a building is spread by; a
-- category without a row is spread by living area (§ 556a Abs. 1 BGB).
CREATE TABLE opcost_keys (
    building_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES buildings (id) ON DELETE CASCADE,
    category VARCHAR(30) NOT NULL,
    allocation_key VARCHAR(20) NOT NULL,
    updated_at {{.Time}} NOT NULL,
    PRIMARY KEY (building_id, category)
);
--bun:split
-- A yearly statement of a building: computed as a draft, posted once.
-- The computation (every contract's lines with their arithmetic) is kept
-- as written when it was made, so the letter and the posting say the same.
CREATE TABLE opcost_statements (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    owner_id BIGINT NOT NULL REFERENCES users (id),
    building_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES buildings (id) ON DELETE CASCADE,
    period_from DATE NOT NULL,
    period_to DATE NOT NULL,
    status VARCHAR(10) NOT NULL,
    currency CHAR(3) NOT NULL,
    computation TEXT NOT NULL,
    late_not_at_fault BOOLEAN NOT NULL DEFAULT FALSE,
    created_at {{.Time}} NOT NULL,
    posted_at {{.Time}},
    CHECK (period_to >= period_from)
);
--bun:split
-- A building's statements by period: the overlap check reads it.
CREATE INDEX opcost_statements_building_idx ON opcost_statements (building_id, period_from, id);
