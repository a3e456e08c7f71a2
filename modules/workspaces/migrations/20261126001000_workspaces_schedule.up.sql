-- When the periodic runs (billing, late fees, notices) happen for the
-- workspace: its IANA time zone and, per kind, a local time HH:MM or "off"
-- (a kind it does not name runs at its default time).
ALTER TABLE workspaces ADD COLUMN time_zone VARCHAR(64) NOT NULL DEFAULT 'UTC';
--bun:split
ALTER TABLE workspaces ADD COLUMN schedule {{.JSON}} NOT NULL DEFAULT '{}';
