-- Charges billed from meter readings (modules/counters): the counter and the
-- two readings whose difference was billed, so a consumption is billed once
-- (the unique index on reading_id; NULLs never conflict) and the charge can
-- be found again when its reading is deleted. No foreign keys: readings
-- belong to the counters module, which depends on this one; a charge keeps
-- its links after the reading is gone.
ALTER TABLE charges ADD COLUMN counter_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
ALTER TABLE charges ADD COLUMN reading_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
ALTER TABLE charges ADD COLUMN previous_reading_id {{if .Postgres}}UUID{{else}}CHAR(36){{end}};
--bun:split
-- Who cancelled a charge and when (money records keep who and when).
ALTER TABLE charges ADD COLUMN cancelled_at {{.Time}};
--bun:split
ALTER TABLE charges ADD COLUMN cancelled_by BIGINT;
--bun:split
CREATE UNIQUE INDEX charges_reading_key ON charges (reading_id);
--bun:split
CREATE INDEX charges_counter_idx ON charges (counter_id);
