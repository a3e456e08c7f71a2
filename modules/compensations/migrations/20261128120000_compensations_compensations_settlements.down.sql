DROP TABLE IF EXISTS deposit_settlements;
--bun:split
DROP TABLE IF EXISTS compensations;
