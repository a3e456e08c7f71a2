-- The chart of accounts of a workspace, made on first use (the ledger
-- module inserts the missing accounts; the unique key makes that safe
-- under concurrency). Lines name an account by its code.
CREATE TABLE ledger_accounts (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    code VARCHAR(20) NOT NULL,
    role VARCHAR(40) NOT NULL,
    created_at {{.Time}} NOT NULL,
    UNIQUE (workspace_id, code)
);
--bun:split
-- One money event. Never updated nor deleted: a reversal is a new entry.
-- Its lines are inserted before it; the trigger below refuses an entry
-- whose lines do not balance (or are fewer than two, or do not add up to
-- total_minor on each side).
CREATE TABLE ledger_entries (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL,
    entry_date DATE NOT NULL,
    kind VARCHAR(30) NOT NULL,
    source_table VARCHAR(40) NOT NULL,
    source_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    memo VARCHAR(500) NOT NULL DEFAULT '',
    currency CHAR(3) NOT NULL,
    total_minor BIGINT NOT NULL CHECK (total_minor > 0),
    created_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX ledger_entries_journal_idx ON ledger_entries (workspace_id, entry_date, id);
--bun:split
CREATE INDEX ledger_entries_source_idx ON ledger_entries (source_table, source_id);
--bun:split
CREATE TABLE ledger_lines (
    id {{.ID}},
    entry_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL,
    workspace_id BIGINT NOT NULL,
    entry_date DATE NOT NULL,
    account_code VARCHAR(20) NOT NULL,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}},
    currency CHAR(3) NOT NULL,
    debit_minor BIGINT NOT NULL CHECK (debit_minor >= 0),
    credit_minor BIGINT NOT NULL CHECK (credit_minor >= 0),
    CHECK ((debit_minor = 0) <> (credit_minor = 0))
);
--bun:split
CREATE INDEX ledger_lines_entry_idx ON ledger_lines (entry_id);
--bun:split
CREATE INDEX ledger_lines_account_idx ON ledger_lines (workspace_id, account_code, entry_date, id);
--bun:split
CREATE INDEX ledger_lines_contract_idx ON ledger_lines (contract_id, account_code);
--bun:split
CREATE INDEX ledger_lines_property_idx ON ledger_lines (property_id, entry_date);
--bun:split
{{if .Postgres}}
CREATE FUNCTION ledger_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    d BIGINT;
    c BIGINT;
    n INT;
BEGIN
    SELECT COALESCE(SUM(debit_minor), 0), COALESCE(SUM(credit_minor), 0), COUNT(*) INTO d, c, n
        FROM ledger_lines WHERE entry_id = NEW.id;
    IF n < 2 OR d <> c OR d <> NEW.total_minor THEN
        RAISE EXCEPTION 'ledger entry % does not balance: debit %, credit %, % lines', NEW.id, d, c, n
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
--bun:split
CREATE TRIGGER ledger_entries_balanced BEFORE INSERT ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entry_balanced();
--bun:split
CREATE FUNCTION ledger_line_open() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.entry_id) THEN
        RAISE EXCEPTION 'ledger entry % is written: no line may be added', NEW.entry_id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;
--bun:split
CREATE TRIGGER ledger_lines_open BEFORE INSERT ON ledger_lines
    FOR EACH ROW EXECUTE FUNCTION ledger_line_open();
--bun:split
CREATE FUNCTION ledger_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the journal is never changed: post a reversal' USING ERRCODE = 'check_violation';
END
$$;
--bun:split
CREATE TRIGGER ledger_entries_immutable BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
--bun:split
CREATE TRIGGER ledger_lines_immutable BEFORE UPDATE OR DELETE ON ledger_lines
    FOR EACH ROW EXECUTE FUNCTION ledger_immutable();
{{else}}
CREATE TRIGGER ledger_entries_balanced BEFORE INSERT ON ledger_entries
WHEN (SELECT COUNT(*) FROM ledger_lines WHERE entry_id = NEW.id) < 2
    OR (SELECT SUM(debit_minor) FROM ledger_lines WHERE entry_id = NEW.id) <> NEW.total_minor
    OR (SELECT SUM(credit_minor) FROM ledger_lines WHERE entry_id = NEW.id) <> NEW.total_minor
BEGIN
    SELECT RAISE(ABORT, 'ledger entry does not balance');
END;
--bun:split
CREATE TRIGGER ledger_lines_open BEFORE INSERT ON ledger_lines
WHEN EXISTS (SELECT 1 FROM ledger_entries WHERE id = NEW.entry_id)
BEGIN
    SELECT RAISE(ABORT, 'ledger entry is written: no line may be added');
END;
--bun:split
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'the journal is never changed: post a reversal');
END;
--bun:split
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'the journal is never changed: post a reversal');
END;
--bun:split
CREATE TRIGGER ledger_lines_no_update BEFORE UPDATE ON ledger_lines
BEGIN
    SELECT RAISE(ABORT, 'the journal is never changed: post a reversal');
END;
--bun:split
CREATE TRIGGER ledger_lines_no_delete BEFORE DELETE ON ledger_lines
BEGIN
    SELECT RAISE(ABORT, 'the journal is never changed: post a reversal');
END;
{{end}}
