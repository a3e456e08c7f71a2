-- Answers of the geocoding provider, kept so that one address is asked
-- once (the provider's usage policy): by the SHA-256 of the normalized
-- address and country filter. Not workspace data: an address's
-- coordinates are the same for everyone, and the key reveals nothing.
-- found false remembers that the provider knew nothing.
CREATE TABLE tools_geocode_cache (
    key CHAR(64) PRIMARY KEY,
    found BOOLEAN NOT NULL,
    answer TEXT NOT NULL,
    fetched_at {{.Time}} NOT NULL
);
--bun:split
-- One row every instance updates before it asks the provider: next_ms is
-- the earliest moment (milliseconds since 1970 on the database's clock,
-- the one clock all instances share) the next slot begins, sent_ms when
-- the last request left. One row only, so the statements need no WHERE on
-- it.
CREATE TABLE tools_geocode_gate (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    next_ms BIGINT NOT NULL,
    sent_ms BIGINT NOT NULL
);
--bun:split
INSERT INTO tools_geocode_gate (id, next_ms, sent_ms) VALUES (1, 0, 0);
