-- The activity log: one row per write to a workspace's records, written in
-- the transaction of the write. No foreign keys: the platform's table must
-- not depend on module tables, and the log outlives the records and users
-- it names.
CREATE TABLE activity (
    id {{.ID}},
    workspace_id BIGINT NOT NULL,
    -- NULL when the write had no signed-in user (a command, a job).
    user_id BIGINT,
    action VARCHAR(32) NOT NULL,
    record_type VARCHAR(32) NOT NULL,
    record_id VARCHAR(64) NOT NULL,
    -- {"field": [before, after], ...}: changed fields only, bounded, no secrets.
    changes {{.JSON}} NOT NULL,
    created_at {{.Time}} NOT NULL
);
--bun:split
-- The feed, newest first, and the feed of one record.
CREATE INDEX activity_workspace_idx ON activity (workspace_id, id DESC);
--bun:split
CREATE INDEX activity_record_idx ON activity (workspace_id, record_type, record_id, id DESC);
