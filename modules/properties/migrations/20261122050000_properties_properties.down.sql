DROP TABLE properties;
