DROP TABLE IF EXISTS calendar_reminders_sent;
--bun:split
DROP TABLE IF EXISTS calendar_feed_tokens;
--bun:split
DROP TABLE IF EXISTS calendar_events;
