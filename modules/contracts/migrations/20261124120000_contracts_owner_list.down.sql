DROP INDEX contracts_owner_status_idx;
--bun:split
DROP INDEX contracts_owner_idx;
