-- How a payment without explicit allocations is spread over the contract's
-- charges (issue 25: the default paid the deposit before the rent).
ALTER TABLE contracts ADD COLUMN allocation_order VARCHAR(12) NOT NULL DEFAULT 'oldest_first'
    CHECK (allocation_order IN ('oldest_first', 'rent_first', 'deposit_last'));
--bun:split
-- Which charges a late fee may be computed on: periodic ones (rent,
-- prepayments, metered consumption) unless the contract says all, which
-- adds the deposit and other one-off charges (issue 25: late fees were
-- charged on the deposit).
ALTER TABLE contracts ADD COLUMN late_fee_base VARCHAR(8) NOT NULL DEFAULT 'periodic'
    CHECK (late_fee_base IN ('periodic', 'all'));
