DROP TABLE IF EXISTS billing_events;
--bun:split
DROP TABLE IF EXISTS billing_credits;
--bun:split
DROP TABLE IF EXISTS billing_counters;
--bun:split
DROP TABLE IF EXISTS billing_invoice_lines;
--bun:split
DROP TABLE IF EXISTS billing_invoices;
--bun:split
DROP TABLE IF EXISTS billing_subscriptions;
