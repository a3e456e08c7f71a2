-- ?archived=true lists the few archived properties of an owner: a partial
-- index holds only them (properties_owner_idx serves the other lists).
CREATE INDEX properties_owner_archived_idx ON properties (owner_id, id) WHERE archived_at IS NOT NULL;
