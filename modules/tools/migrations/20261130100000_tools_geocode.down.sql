DROP TABLE tools_geocode_gate;
--bun:split
DROP TABLE tools_geocode_cache;
