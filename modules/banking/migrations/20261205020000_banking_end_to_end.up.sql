-- The payer's end-to-end reference of a line (CAMT EndToEndId, MT940
-- EREF+): a returned direct debit quotes the one of the debit it returns,
-- which finds that line's payment to reverse.
ALTER TABLE bank_lines ADD COLUMN end_to_end_id VARCHAR(100) NOT NULL DEFAULT '';
--bun:split
CREATE INDEX bank_lines_end_to_end_idx ON bank_lines (bank_account_id, end_to_end_id);
--bun:split
-- A line split over several contracts of one payer: each contract's share
-- and its payment, a JSON array (NULL when the line paid one contract).
ALTER TABLE bank_lines ADD COLUMN splits {{.JSON}};
--bun:split
-- The bill a debit line may be (supplier, dates, amount, note), JSON.
ALTER TABLE bank_lines ADD COLUMN bill_proposal {{.JSON}};
