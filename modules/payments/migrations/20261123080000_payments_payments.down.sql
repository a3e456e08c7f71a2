DROP TABLE payment_allocations;
--bun:split
DROP TABLE payments;
