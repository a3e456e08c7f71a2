DROP TABLE notice_dunning;
--bun:split
ALTER TABLE contract_notice_settings DROP COLUMN reminder_step3_days;
--bun:split
ALTER TABLE contract_notice_settings DROP COLUMN reminder_step2_days;
--bun:split
ALTER TABLE notice_settings DROP COLUMN reminder_step3_days;
--bun:split
ALTER TABLE notice_settings DROP COLUMN reminder_step2_days;
