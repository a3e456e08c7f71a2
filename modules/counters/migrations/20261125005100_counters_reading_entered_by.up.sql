-- Who entered a reading: the landlord (their routes, their imports) or the
-- contract's tenant through the portal (modules/tenancy). Every reading
-- stored before the portal was the landlord's.
ALTER TABLE counter_readings ADD COLUMN entered_by VARCHAR(10) NOT NULL DEFAULT 'landlord' CHECK (entered_by IN ('landlord', 'tenant'));
