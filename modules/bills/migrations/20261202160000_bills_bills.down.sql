DROP TABLE bills;
