ALTER TABLE counter_readings DROP COLUMN entered_by;
