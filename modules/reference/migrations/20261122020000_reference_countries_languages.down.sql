DROP TABLE languages;
--bun:split
DROP TABLE countries;
