-- The rent a contract shows is the one in force today; an indexation
-- scheduled for a later month is its next_rent. rent_minor stays the
-- latest rent; rent_from is the day it starts (NULL: the contract's
-- start) and prior_rent_minor the rent before it, in force until then.
ALTER TABLE contracts ADD COLUMN rent_from DATE;
--bun:split
ALTER TABLE contracts ADD COLUMN prior_rent_minor BIGINT;
--bun:split
UPDATE contracts SET
    rent_from = (SELECT r.from_date FROM contract_rents AS r WHERE r.contract_id = contracts.id ORDER BY r.from_date DESC LIMIT 1),
    prior_rent_minor = (SELECT r.amount_minor FROM contract_rents AS r WHERE r.contract_id = contracts.id ORDER BY r.from_date DESC LIMIT 1 OFFSET 1)
WHERE (SELECT COUNT(*) FROM contract_rents AS r WHERE r.contract_id = contracts.id) > 1;
