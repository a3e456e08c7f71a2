ALTER TABLE building_units DROP COLUMN unit_use;
