-- The trial balance at size (issue 44: 1.5 million lines at 10,000 units
-- took 420-550 ms to add up). Every line inserted also writes a delta
-- (insert only: no row two transactions wait for); a periodic job moves
-- the committed deltas into ledger_totals, one row per workspace,
-- account, currency and day, in one statement, so a reader adding up
-- totals and the deltas left in one snapshot counts every line once.
CREATE TABLE ledger_totals (
    workspace_id BIGINT NOT NULL,
    account_code VARCHAR(20) NOT NULL,
    currency CHAR(3) NOT NULL,
    entry_date DATE NOT NULL,
    debit_minor BIGINT NOT NULL,
    credit_minor BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, account_code, currency, entry_date)
);
--bun:split
CREATE TABLE ledger_deltas (
    id {{.ID}},
    workspace_id BIGINT NOT NULL,
    account_code VARCHAR(20) NOT NULL,
    currency CHAR(3) NOT NULL,
    entry_date DATE NOT NULL,
    debit_minor BIGINT NOT NULL,
    credit_minor BIGINT NOT NULL
);
--bun:split
CREATE INDEX ledger_deltas_workspace_idx ON ledger_deltas (workspace_id, entry_date);
--bun:split
-- The lines journaled before.
INSERT INTO ledger_totals (workspace_id, account_code, currency, entry_date, debit_minor, credit_minor)
SELECT workspace_id, account_code, currency, entry_date, SUM(debit_minor), SUM(credit_minor)
FROM ledger_lines GROUP BY workspace_id, account_code, currency, entry_date;
--bun:split
{{if .Postgres}}
-- One insert per statement of lines (a transition table), not per line.
CREATE FUNCTION ledger_lines_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger_deltas (workspace_id, account_code, currency, entry_date, debit_minor, credit_minor)
        SELECT workspace_id, account_code, currency, entry_date, debit_minor, credit_minor FROM new_lines;
    RETURN NULL;
END
$$;
--bun:split
CREATE TRIGGER ledger_lines_delta AFTER INSERT ON ledger_lines
    REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION ledger_lines_delta();
{{else}}
CREATE TRIGGER ledger_lines_delta AFTER INSERT ON ledger_lines
BEGIN
    INSERT INTO ledger_deltas (workspace_id, account_code, currency, entry_date, debit_minor, credit_minor)
        VALUES (NEW.workspace_id, NEW.account_code, NEW.currency, NEW.entry_date, NEW.debit_minor, NEW.credit_minor);
END;
{{end}}
