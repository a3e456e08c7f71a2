-- A unit's use: a dwelling, or premises let for another use, whose CO2
-- cost is split 50/50 (§ 8 CO2KostAufG) instead of by the tier.
ALTER TABLE building_units ADD COLUMN unit_use VARCHAR(20) NOT NULL DEFAULT 'residential';
