DROP TABLE IF EXISTS negotiation_rounds;
--bun:split
DROP TABLE IF EXISTS negotiations;
