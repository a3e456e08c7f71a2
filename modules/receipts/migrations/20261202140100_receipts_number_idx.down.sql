DROP INDEX receipts_number_idx;
