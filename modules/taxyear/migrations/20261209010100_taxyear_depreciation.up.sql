-- The depreciation basis a landlord records for a property (one per
-- property): the building's cost without the land, the day it was
-- acquired or completed (placed in service), and the rule of its
-- country: Germany's linear AfA at rate_centi hundredths of a percent
-- (§ 7 (4) EStG, from completed_year), the US's 27.5 years mid-month
-- (IRS Pub. 946 table A-6). The tax year computes each year's amount.
CREATE TABLE taxyear_depreciation (
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY REFERENCES properties (id) ON DELETE CASCADE,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    method VARCHAR(20) NOT NULL,
    basis_minor BIGINT NOT NULL CHECK (basis_minor > 0),
    currency CHAR(3) NOT NULL,
    placed_on DATE NOT NULL,
    completed_year INT,
    rate_centi BIGINT NOT NULL CHECK (rate_centi >= 0 AND rate_centi <= 10000),
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX taxyear_depreciation_workspace_idx ON taxyear_depreciation (workspace_id);
