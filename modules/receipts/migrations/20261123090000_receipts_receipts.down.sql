DROP TABLE receipt_sequences;
--bun:split
DROP TABLE receipts;
