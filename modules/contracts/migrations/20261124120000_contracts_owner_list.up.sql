-- The contracts list is per owner in id order (issue 25: page 100 took
-- 19.6 ms through contracts_owner_number_key and a sort); with this index a
-- page, first or after any cursor, reads only its own rows.
CREATE INDEX contracts_owner_idx ON contracts (owner_id, id);
--bun:split
-- ?status= narrows the list: draft, terminated and ended (active with an
-- end date before today) are few among many active contracts, and this
-- index finds them without reading the owner's other contracts.
CREATE INDEX contracts_owner_status_idx ON contracts (owner_id, status, end_date);
