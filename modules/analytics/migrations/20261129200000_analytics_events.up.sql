-- Product events as clients sent them. user_id and workspace_id are set
-- when the request carried a valid token; day is occurred_at's UTC date,
-- kept apart so the daily summary groups and filters on an index without
-- a per-row expression the two engines spell differently.
CREATE TABLE analytics_events (
    id {{.ID}},
    name VARCHAR(100) NOT NULL,
    occurred_at {{.Time}} NOT NULL,
    day {{if .Postgres}}DATE{{else}}CHAR(10){{end}} NOT NULL,
    received_at {{.Time}} NOT NULL,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    workspace_id BIGINT REFERENCES workspaces (id) ON DELETE SET NULL,
    anonymous_id VARCHAR(100),
    properties {{.JSON}} NOT NULL
);
--bun:split
CREATE INDEX analytics_events_day ON analytics_events (day);
--bun:split
-- Deleting a user or a workspace sets their events' ids to NULL: without
-- these the delete would read the whole table.
CREATE INDEX analytics_events_user ON analytics_events (user_id) WHERE user_id IS NOT NULL;
--bun:split
CREATE INDEX analytics_events_workspace ON analytics_events (workspace_id) WHERE workspace_id IS NOT NULL;
