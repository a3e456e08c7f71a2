-- The periodic runs of platform/jobs: one per workspace, kind and local day.
CREATE TABLE job_runs (
    id {{.ID}},
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind VARCHAR(32) NOT NULL,
    -- The workspace's local date the run is for (YYYY-MM-DD).
    local_date VARCHAR(10) NOT NULL,
    state VARCHAR(16) NOT NULL CHECK (state IN ('queued', 'running', 'finished', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    counts {{.JSON}} NOT NULL,
    problems {{.JSON}} NOT NULL,
    error TEXT,
    queued_at {{.Time}} NOT NULL,
    started_at {{.Time}},
    finished_at {{.Time}}
);
--bun:split
CREATE UNIQUE INDEX job_runs_once_key ON job_runs (workspace_id, kind, local_date);
--bun:split
-- A workspace's runs, newest first.
CREATE INDEX job_runs_workspace_idx ON job_runs (workspace_id, id);
