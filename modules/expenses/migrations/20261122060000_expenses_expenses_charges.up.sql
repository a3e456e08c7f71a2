CREATE TABLE expenses (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    -- A property without charges is deleted with its expenses.
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE CASCADE,
    name VARCHAR(200) NOT NULL,
    type VARCHAR(10) NOT NULL CHECK (type IN ('MANUAL', 'MONTHLY', 'QUARTERLY', 'YEARLY')),
    -- Hundredths of the currency unit: money is never a float.
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    currency CHAR(3) NOT NULL,
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    start_date DATE NOT NULL,
    end_date DATE,
    due_day SMALLINT NOT NULL DEFAULT 1 CHECK (due_day BETWEEN 1 AND 28),
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL,
    -- A deleted expense stays, hidden, so the charges it generated keep
    -- their expense_id.
    deleted_at {{.Time}},
    CHECK (end_date IS NULL OR end_date >= start_date)
);
--bun:split
CREATE INDEX expenses_property_idx ON expenses (property_id, id);
--bun:split
CREATE TABLE charges (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    -- Money records are never lost silently: a property with charges
    -- cannot be deleted.
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES properties (id) ON DELETE RESTRICT,
    -- NULL for a manual charge.
    expense_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} REFERENCES expenses (id),
    -- The expense id of a generated charge, the charge's own id for a
    -- manual one. Never NULL, so the unique key below always holds (NULLs
    -- never conflict) and concurrent refreshes insert each charge once.
    origin {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    name VARCHAR(200) NOT NULL,
    amount_minor BIGINT NOT NULL CHECK (amount_minor > 0),
    currency CHAR(3) NOT NULL,
    period VARCHAR(7) NOT NULL,
    due_date DATE NOT NULL,
    status VARCHAR(10) NOT NULL DEFAULT 'unpaid' CHECK (status IN ('unpaid', 'paid', 'cancelled')),
    created_at {{.Time}} NOT NULL,
    CHECK (expense_id IS NULL OR expense_id = origin)
);
--bun:split
CREATE UNIQUE INDEX charges_origin_period_key ON charges (origin, period);
--bun:split
CREATE INDEX charges_property_idx ON charges (property_id, due_date, id);
--bun:split
CREATE INDEX charges_expense_idx ON charges (expense_id);
