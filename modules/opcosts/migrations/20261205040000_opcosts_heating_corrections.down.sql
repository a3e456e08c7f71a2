ALTER TABLE opcost_statements DROP COLUMN corrects_id;
--bun:split
ALTER TABLE opcost_keys DROP COLUMN consumption_share;
