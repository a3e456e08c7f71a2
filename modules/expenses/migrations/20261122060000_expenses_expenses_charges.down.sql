DROP TABLE charges;
--bun:split
DROP TABLE expenses;
