-- The dwelling's living area in hundredths of a square metre (42.5 m² is
-- 4250), NULL when not given: a French lease must state it (loi 89-462
-- art. 3), German and English leases print it when set. Bounded as the
-- service bounds it: more than 0, at most 100,000 m².
ALTER TABLE properties ADD COLUMN living_area_centi BIGINT CHECK (living_area_centi IS NULL OR (living_area_centi > 0 AND living_area_centi <= 10000000));
