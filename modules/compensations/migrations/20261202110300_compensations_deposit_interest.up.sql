-- The interest the deposit earned for the tenant (Germany, § 551 Abs. 3
-- BGB; platform/law): the yearly rate used (ten-thousandths of a percent,
-- NULL when the law of the property's country gives none and none was
-- agreed), the interest in cents (part of the refund), and one line per
-- day the deposit was received (JSON: received_on, amount, days,
-- interest).
ALTER TABLE deposit_settlements ADD COLUMN interest_rate_e4 BIGINT;
--bun:split
ALTER TABLE deposit_settlements ADD COLUMN interest_minor BIGINT NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE deposit_settlements ADD COLUMN interest_lines TEXT NOT NULL DEFAULT '[]';
