{{if .Postgres}}
-- The foreign key from a charge to its expense made PostgreSQL check every
-- new charge with a lookup that locks the expense row (FOR KEY SHARE): a
-- thousand row locks, each written to the expense's page and the WAL, when
-- refresh-all bills a thousand expenses (a fifth of its time). Charges are
-- made from their expense in the same transaction, expenses with charges
-- are only ever hidden (deleted_at), and a property's expenses are deleted
-- only when it has no charge (expenses' propertyCleanup), so the key
-- guarded nothing the service does not; every test of the expenses
-- module ends by looking for a charge of no expense.
-- SQLite keeps the key (dropping it there means a table rebuild).
ALTER TABLE charges DROP CONSTRAINT charges_expense_id_fkey;
{{end}}
