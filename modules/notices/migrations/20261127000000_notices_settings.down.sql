DROP TABLE contract_notice_settings;
--bun:split
DROP TABLE notice_settings;
