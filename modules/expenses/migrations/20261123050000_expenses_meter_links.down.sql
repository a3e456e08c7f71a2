DROP INDEX charges_counter_idx;
--bun:split
DROP INDEX charges_reading_key;
--bun:split
ALTER TABLE charges DROP COLUMN cancelled_by;
--bun:split
ALTER TABLE charges DROP COLUMN cancelled_at;
--bun:split
ALTER TABLE charges DROP COLUMN previous_reading_id;
--bun:split
ALTER TABLE charges DROP COLUMN reading_id;
--bun:split
ALTER TABLE charges DROP COLUMN counter_id;
