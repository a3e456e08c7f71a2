ALTER TABLE bank_lines DROP COLUMN bill_proposal;
--bun:split
ALTER TABLE bank_lines DROP COLUMN splits;
--bun:split
DROP INDEX bank_lines_end_to_end_idx;
--bun:split
ALTER TABLE bank_lines DROP COLUMN end_to_end_id;
