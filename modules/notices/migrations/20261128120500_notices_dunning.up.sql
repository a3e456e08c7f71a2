-- The dunning ladder: how long after a step the next one goes out, for
-- the workspace and (NULL: as the workspace) for each contract.
ALTER TABLE notice_settings ADD COLUMN reminder_step2_days INTEGER NOT NULL DEFAULT 7;
--bun:split
ALTER TABLE notice_settings ADD COLUMN reminder_step3_days INTEGER NOT NULL DEFAULT 14;
--bun:split
ALTER TABLE contract_notice_settings ADD COLUMN reminder_step2_days INTEGER;
--bun:split
ALTER TABLE contract_notice_settings ADD COLUMN reminder_step3_days INTEGER;
--bun:split
-- Where each contract in arrears stands on the ladder: the step last sent
-- and on which day, for the arrear that began (step 1) on since. Paying
-- the overdue amount deletes the row: a new arrear starts at step 1.
CREATE TABLE notice_dunning (
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY REFERENCES contracts (id) ON DELETE CASCADE,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    since DATE NOT NULL,
    step INTEGER NOT NULL CHECK (step BETWEEN 1 AND 3),
    sent_on DATE NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX notice_dunning_workspace ON notice_dunning (workspace_id);
