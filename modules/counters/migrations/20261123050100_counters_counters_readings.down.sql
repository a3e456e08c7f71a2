DROP TABLE counter_readings;
--bun:split
DROP TABLE counters;
