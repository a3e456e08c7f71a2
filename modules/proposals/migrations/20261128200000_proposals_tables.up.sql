-- A proposal offers a vacant property for letting; published ones are
-- public under their slug.
CREATE TABLE proposals (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    owner_id BIGINT NOT NULL REFERENCES users (id),
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id),
    -- The public name: random, lower-case, never reused.
    slug VARCHAR(32) NOT NULL,
    status VARCHAR(12) NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'closed')),
    title VARCHAR(200) NOT NULL,
    description TEXT NOT NULL,
    rent_minor BIGINT NOT NULL CHECK (rent_minor > 0),
    currency CHAR(3) NOT NULL,
    deposit_months SMALLINT NOT NULL CHECK (deposit_months BETWEEN 0 AND 12),
    available_from DATE NOT NULL,
    min_term_months SMALLINT NOT NULL CHECK (min_term_months BETWEEN 0 AND 120),
    -- JSON arrays: [{code, value}] as a contract's terms; document ids.
    terms TEXT NOT NULL,
    photos TEXT NOT NULL,
    published_at {{.Time}},
    closed_at {{.Time}},
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX proposals_slug_key ON proposals (slug);
--bun:split
-- The list of a property's proposals, in id order (keyset).
CREATE INDEX proposals_property_idx ON proposals (property_id, id);
--bun:split
-- An application to a published proposal. It stays 'pending' until the
-- applicant confirms their email with the code; only then the landlord
-- sees it.
CREATE TABLE proposal_applications (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    proposal_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES proposals (id) ON DELETE CASCADE,
    status VARCHAR(12) NOT NULL CHECK (status IN ('pending', 'new', 'shortlisted', 'declined')),
    name VARCHAR(100) NOT NULL,
    email VARCHAR(254) NOT NULL,
    phone VARCHAR(16) NOT NULL,
    message TEXT NOT NULL,
    desired_start DATE,
    household_size SMALLINT NOT NULL CHECK (household_size BETWEEN 1 AND 20),
    locale VARCHAR(10) NOT NULL,
    -- HMAC of the 6-digit code under a key derived from auth.secret.
    code_hash VARCHAR(64) NOT NULL,
    code_attempts SMALLINT NOT NULL DEFAULT 0,
    code_expires_ms BIGINT NOT NULL,
    confirmed_at {{.Time}},
    decided_at {{.Time}},
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
-- One confirmed application per email and proposal; pending ones may
-- repeat (a second request must look like the first: no enumeration).
CREATE UNIQUE INDEX proposal_applications_email_key ON proposal_applications (proposal_id, email) WHERE status <> 'pending';
--bun:split
CREATE INDEX proposal_applications_list_idx ON proposal_applications (proposal_id, id);
