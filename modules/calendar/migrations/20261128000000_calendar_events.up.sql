-- A workspace's own calendar events. Derived events (rent due dates,
-- contract start and end, indexations, deposit deadlines) are computed from
-- contracts on every read and never stored. Lists of values (exdates,
-- overrides, attendees, reminders) are JSON text written by the module.
CREATE TABLE calendar_events (
    id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    title VARCHAR(200) NOT NULL,
    description TEXT NOT NULL,
    kind VARCHAR(16) NOT NULL CHECK (kind IN ('viewing', 'inspection', 'repair', 'meeting', 'other')),
    -- starts_at and ends_at are instants (UTC); an all-day event keeps its
    -- first and last day as midnight UTC of those dates.
    starts_at {{.Time}} NOT NULL,
    ends_at {{.Time}} NOT NULL,
    all_day BOOLEAN NOT NULL,
    time_zone VARCHAR(64) NOT NULL,
    rrule VARCHAR(500) NOT NULL,
    -- until_at is the end of the last occurrence (NULL: the rule never
    -- ends), so that a window reads only the events that can reach it.
    until_at {{.Time}},
    exdates TEXT NOT NULL,
    overrides TEXT NOT NULL,
    property_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} REFERENCES properties (id) ON DELETE SET NULL,
    contract_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} REFERENCES contracts (id) ON DELETE SET NULL,
    attendees TEXT NOT NULL,
    reminders TEXT NOT NULL,
    -- sequence is the iCalendar SEQUENCE, raised by every change.
    sequence INTEGER NOT NULL,
    created_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
--bun:split
CREATE INDEX calendar_events_workspace_idx ON calendar_events (workspace_id, id);
--bun:split
CREATE INDEX calendar_events_window_idx ON calendar_events (workspace_id, starts_at);
--bun:split
CREATE INDEX calendar_events_property_idx ON calendar_events (property_id);
--bun:split
CREATE INDEX calendar_events_contract_idx ON calendar_events (contract_id);
--bun:split
-- A member's secret feed: only the SHA-256 of the token is kept, one per
-- member and workspace; rotating it replaces the row.
CREATE TABLE calendar_feed_tokens (
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash CHAR(64) NOT NULL,
    created_at {{.Time}} NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);
--bun:split
CREATE UNIQUE INDEX calendar_feed_tokens_hash_key ON calendar_feed_tokens (token_hash);
--bun:split
-- One row per reminder sent: (event, occurrence, minutes) once, however
-- often the reminder job runs or how many instances run it.
CREATE TABLE calendar_reminders_sent (
    event_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}} NOT NULL REFERENCES calendar_events (id) ON DELETE CASCADE,
    occurrence {{.Time}} NOT NULL,
    minutes INTEGER NOT NULL,
    sent_at {{.Time}} NOT NULL,
    PRIMARY KEY (event_id, occurrence, minutes)
);
