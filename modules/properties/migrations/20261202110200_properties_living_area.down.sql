ALTER TABLE properties DROP COLUMN living_area_centi;
