DROP TABLE bank_csv_mappings;
--bun:split
DROP TABLE bank_payer_ibans;
--bun:split
DROP TABLE bank_lines;
