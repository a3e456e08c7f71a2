DROP TABLE contract_rents;
