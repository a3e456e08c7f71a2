-- A negotiation of a contract's terms between a landlord and a shortlisted
-- applicant, in rounds of offers.
CREATE TABLE negotiations (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id),
    proposal_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    -- One negotiation per application; it goes with the application (and
    -- so with the proposal and its property).
    application_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES proposal_applications (id) ON DELETE CASCADE,
    status VARCHAR(12) NOT NULL CHECK (status IN ('open', 'agreed', 'declined', 'expired')),
    current_round INTEGER NOT NULL,
    agreed_round INTEGER,
    declined_by VARCHAR(10),
    expires_at {{.Time}} NOT NULL,
    -- The draft contract and the tenant made from an agreed negotiation
    -- (POST /negotiations/{id}/contract), once.
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    tenant_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX negotiations_application_key ON negotiations (application_id);
--bun:split
CREATE INDEX negotiations_property_idx ON negotiations (property_id, id);
--bun:split
-- The expiry job finds the open ones past their time.
CREATE INDEX negotiations_expiry_idx ON negotiations (status, expires_at);
--bun:split
CREATE TABLE negotiation_rounds (
    negotiation_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES negotiations (id) ON DELETE CASCADE,
    round INTEGER NOT NULL CHECK (round >= 1),
    side VARCHAR(10) NOT NULL CHECK (side IN ('landlord', 'applicant')),
    terms TEXT NOT NULL,
    message TEXT NOT NULL,
    landlord_accepted BOOLEAN NOT NULL,
    applicant_accepted BOOLEAN NOT NULL,
    created_at {{.Time}} NOT NULL,
    -- Two offers of one round cannot both be stored: the later is stale.
    PRIMARY KEY (negotiation_id, round)
);
