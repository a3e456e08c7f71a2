DROP TABLE contract_households;
--bun:split
DROP TABLE building_units;
--bun:split
DROP TABLE buildings;
