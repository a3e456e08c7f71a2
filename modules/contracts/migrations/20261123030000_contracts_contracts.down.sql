DROP TABLE contracts;
