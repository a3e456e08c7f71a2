DROP TABLE contragents;
