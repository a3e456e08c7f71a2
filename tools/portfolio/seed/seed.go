// Package seed fills a PostgreSQL propman database with one landlord's
// portfolio in a few set-based statements (INSERT ... SELECT over
// generate_series): every unit gets a property, a tenant, an active
// contract, a rent expense, its charges (two of them late fees), payments
// with their allocation and receipt, a document, and a meter with readings.
// It backs scripts/portfolio and the EXPLAIN test of every list query.
package seed

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Size says how much to seed.
type Size struct {
	Units int
	// ChargesPerUnit (at least 3) ends with two late fees; PaymentsPerUnit
	// (at most ChargesPerUnit-2) each pay one rent charge.
	ChargesPerUnit  int
	PaymentsPerUnit int
	// ReadingsPerUnit are monthly readings of the unit's one meter.
	ReadingsPerUnit int
	// OwnerOnly seeds only what is listed per landlord (properties,
	// tenants, contracts): other landlords beside the one measured.
	OwnerOnly bool
}

// Portfolio is the size issue 25 measured: ~51 charges and ~24 payments a unit.
func Portfolio(units int) Size {
	return Size{Units: units, ChargesPerUnit: 51, PaymentsPerUnit: 24, ReadingsPerUnit: 12}
}

// Seed adds size's units to the landlord ownerID. tag makes the ids
// (md5 of tag, kind and number) distinct between calls: use a new tag for
// each call on one database. It runs in one transaction and ends with ANALYZE,
// so the planner knows the new sizes.
func Seed(ctx context.Context, db *sql.DB, ownerID int64, tag string, size Size) error {
	if size.ChargesPerUnit < 3 || size.PaymentsPerUnit > size.ChargesPerUnit-2 {
		return fmt.Errorf("seed: need at least 3 charges and at most charges-2 payments a unit")
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	rents := size.ChargesPerUnit - 2
	// $1 owner, $2 tag, $3 units, $4 start of the data, $5 per-unit count.
	steps := []struct {
		what  string
		query string
		per   int
	}{
		// The owner's own workspace, as their first request would make it.
		{"workspace", `INSERT INTO workspaces (name, landlord_id, created_at, updated_at)
			SELECT name, id, $4, $4 FROM users WHERE id = $1
			ON CONFLICT (landlord_id) DO NOTHING`, 0},
		{"workspace owner", `INSERT INTO workspace_members (workspace_id, user_id, role, is_default, created_at, updated_at)
			SELECT w.id, $1, 'owner', NOT EXISTS (SELECT 1 FROM workspace_members WHERE user_id = $1 AND is_default), $4, $4
			FROM workspaces AS w WHERE w.landlord_id = $1
			ON CONFLICT (workspace_id, user_id) DO NOTHING`, 0},
		{"properties", `INSERT INTO properties (id, owner_id, workspace_id, name, address, city, postal_code, country_code, currency, created_at, updated_at)
			SELECT md5($2 || ':p:' || i)::uuid, $1, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), 'Unit ' || i, 'Hauptstrasse ' || i, 'Berlin', lpad((i % 100000)::text, 5, '0'),
				'DE', 'EUR', $4::timestamptz + i * interval '1 second', $4::timestamptz + i * interval '1 second'
			FROM generate_series(1, $3::int) AS i`, 0},
		{"contragents", `INSERT INTO contragents (id, owner_id, workspace_id, kind, roles, name, name_search, email, created_at, updated_at)
			SELECT md5($2 || ':t:' || i)::uuid, $1, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), 'person', '["tenant"]', n, lower(n), 'tenant' || i || '@example.com', $4, $4
			FROM generate_series(1, $3::int) AS i,
				LATERAL (SELECT (ARRAY['Müller','Schmidt','Schneider','Fischer','Weber','Meyer','Wagner','Becker','Schulz','Hoffmann'])[1 + i % 10]
					|| ' ' || (ARRAY['Anna','Ben','Clara','David','Eva','Felix','Greta','Hans','Ida','Jonas','Karla'])[1 + i % 11] || ' ' || i AS n) AS name`, 0},
		{"contracts", `INSERT INTO contracts (id, owner_id, workspace_id, property_id, tenant_id, number, status, locale, terms, currency,
				start_date, rent_minor, deposit_minor, due_day, created_at, updated_at)
			SELECT md5($2 || ':c:' || i)::uuid, $1, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), md5($2 || ':p:' || i)::uuid, md5($2 || ':t:' || i)::uuid,
				'S' || $2 || '-' || i, 'active', 'en', '[]', 'EUR', date '2022-09-01', 95000, 190000, 1, $4, $4
			FROM generate_series(1, $3::int) AS i`, 0},
		{"expenses", `INSERT INTO expenses (id, property_id, name, type, amount_minor, currency, is_active, start_date, due_day, contract_id, created_at, updated_at)
			SELECT md5($2 || ':e:' || i)::uuid, md5($2 || ':p:' || i)::uuid, 'Rent', 'MONTHLY', 95000, 'EUR', true,
				date '2022-09-01', 1, md5($2 || ':c:' || i)::uuid, $4, $4
			FROM generate_series(1, $3::int) AS i`, 0},
		{"rent charges", `INSERT INTO charges (id, property_id, expense_id, origin, name, amount_minor, currency, period, due_date,
				status, paid_amount_minor, kind, contract_id, created_at)
			SELECT md5($2 || ':ch:' || i || ':' || k)::uuid, md5($2 || ':p:' || i)::uuid, md5($2 || ':e:' || i)::uuid,
				md5($2 || ':e:' || i)::uuid, 'Rent', 95000, 'EUR', to_char(d, 'YYYY-MM'), d,
				CASE WHEN k <= $6 THEN 'paid' ELSE 'unpaid' END, CASE WHEN k <= $6 THEN 95000 ELSE 0 END,
				'regular', md5($2 || ':c:' || i)::uuid, $4
			FROM generate_series(1, $3::int) AS i, generate_series(1, $5::int) AS k,
				LATERAL (SELECT (date '2022-09-01' + (k - 1) * interval '1 month')::date AS d) AS due`, rents},
		{"late fees", `INSERT INTO charges (id, property_id, origin, name, amount_minor, currency, period, due_date,
				status, kind, penalty_for, contract_id, created_at)
			SELECT md5($2 || ':ch:' || i || ':' || (k + $5))::uuid, md5($2 || ':p:' || i)::uuid,
				md5($2 || ':ch:' || i || ':' || ($5 - k + 1))::uuid, 'Late fee', 500, 'EUR', to_char(d, 'YYYY-MM'), d + 14,
				'unpaid', 'penalty', md5($2 || ':ch:' || i || ':' || ($5 - k + 1))::uuid, md5($2 || ':c:' || i)::uuid, $4
			FROM generate_series(1, $3::int) AS i, generate_series(1, 2) AS k,
				LATERAL (SELECT (date '2022-09-01' + ($5 - k) * interval '1 month')::date AS d) AS due`, rents},
		{"payments", `INSERT INTO payments (id, property_id, owner_id, contract_id, payer_id, amount_minor, currency, paid_on, method,
				reference, status, unallocated_minor, created_by, created_at, updated_at)
			SELECT md5($2 || ':pay:' || i || ':' || k)::uuid, md5($2 || ':p:' || i)::uuid, $1, md5($2 || ':c:' || i)::uuid,
				md5($2 || ':t:' || i)::uuid, 95000, 'EUR', (date '2022-09-03' + (k - 1) * interval '1 month')::date,
				'bank_transfer', 'Rent ' || k, 'posted', 0, $1, $4, $4
			FROM generate_series(1, $3::int) AS i, generate_series(1, $5::int) AS k`, size.PaymentsPerUnit},
		{"allocations", `INSERT INTO payment_allocations (payment_id, charge_id, property_id, amount_minor, created_at)
			SELECT md5($2 || ':pay:' || i || ':' || k)::uuid, md5($2 || ':ch:' || i || ':' || k)::uuid,
				md5($2 || ':p:' || i)::uuid, 95000, $4
			FROM generate_series(1, $3::int) AS i, generate_series(1, $5::int) AS k`, size.PaymentsPerUnit},
		// The journal the ledger module writes for those charges and
		// payments (its lines first: the entry's trigger checks that they
		// balance), so the trial balance and the ledger's reports read a
		// portfolio's books at size.
		{"journal rent lines", `INSERT INTO ledger_lines (entry_id, workspace_id, entry_date, account_code, contract_id, property_id, currency, debit_minor, credit_minor)
			SELECT md5($2 || ':jch:' || i || ':' || k)::uuid, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), d, a.code,
				md5($2 || ':c:' || i)::uuid, md5($2 || ':p:' || i)::uuid, 'EUR', a.dr, a.cr
			FROM generate_series(1, $3::int) AS i, generate_series(1, $5::int) AS k,
				LATERAL (SELECT (date '2022-09-01' + (k - 1) * interval '1 month')::date AS d) AS due,
				(VALUES ('1200', 95000, 0), ('4100', 0, 95000)) AS a(code, dr, cr)`, rents},
		{"journal rent entries", `INSERT INTO ledger_entries (id, workspace_id, entry_date, kind, source_table, source_id, memo, currency, total_minor, created_at)
			SELECT md5($2 || ':jch:' || i || ':' || k)::uuid, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), d, 'charge', 'charges',
				md5($2 || ':ch:' || i || ':' || k)::uuid, 'Rent', 'EUR', 95000, $4
			FROM generate_series(1, $3::int) AS i, generate_series(1, $5::int) AS k,
				LATERAL (SELECT (date '2022-09-01' + (k - 1) * interval '1 month')::date AS d) AS due`, rents},
		{"journal late fee lines", `INSERT INTO ledger_lines (entry_id, workspace_id, entry_date, account_code, contract_id, property_id, currency, debit_minor, credit_minor)
			SELECT md5($2 || ':jch:' || i || ':' || (k + $5))::uuid, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), d, a.code,
				md5($2 || ':c:' || i)::uuid, md5($2 || ':p:' || i)::uuid, 'EUR', a.dr, a.cr
			FROM generate_series(1, $3::int) AS i, generate_series(1, 2) AS k,
				LATERAL (SELECT (date '2022-09-01' + ($5 - k) * interval '1 month')::date + 14 AS d) AS due,
				(VALUES ('1200', 500, 0), ('4200', 0, 500)) AS a(code, dr, cr)`, rents},
		{"journal late fee entries", `INSERT INTO ledger_entries (id, workspace_id, entry_date, kind, source_table, source_id, memo, currency, total_minor, created_at)
			SELECT md5($2 || ':jch:' || i || ':' || (k + $5))::uuid, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), d, 'charge', 'charges',
				md5($2 || ':ch:' || i || ':' || (k + $5))::uuid, 'Late fee', 'EUR', 500, $4
			FROM generate_series(1, $3::int) AS i, generate_series(1, 2) AS k,
				LATERAL (SELECT (date '2022-09-01' + ($5 - k) * interval '1 month')::date + 14 AS d) AS due`, rents},
		{"journal payment lines", `INSERT INTO ledger_lines (entry_id, workspace_id, entry_date, account_code, contract_id, property_id, currency, debit_minor, credit_minor)
			SELECT md5($2 || ':jpay:' || i || ':' || k)::uuid, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), d, a.code,
				CASE WHEN a.code = '1200' THEN md5($2 || ':c:' || i)::uuid END, md5($2 || ':p:' || i)::uuid, 'EUR', a.dr, a.cr
			FROM generate_series(1, $3::int) AS i, generate_series(1, $5::int) AS k,
				LATERAL (SELECT (date '2022-09-03' + (k - 1) * interval '1 month')::date AS d) AS paid,
				(VALUES ('1800', 95000, 0), ('1200', 0, 95000)) AS a(code, dr, cr)`, size.PaymentsPerUnit},
		{"journal payment entries", `INSERT INTO ledger_entries (id, workspace_id, entry_date, kind, source_table, source_id, memo, currency, total_minor, created_at)
			SELECT md5($2 || ':jpay:' || i || ':' || k)::uuid, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), d, 'payment', 'payments',
				md5($2 || ':pay:' || i || ':' || k)::uuid, 'Rent ' || k, 'EUR', 95000, $4
			FROM generate_series(1, $3::int) AS i, generate_series(1, $5::int) AS k,
				LATERAL (SELECT (date '2022-09-03' + (k - 1) * interval '1 month')::date AS d) AS paid`, size.PaymentsPerUnit},
		// Receipt numbers continue, per year, after whatever the landlord
		// has (read once: a subquery per row would walk the index entries
		// this statement adds, which its snapshot cannot see).
		{"receipts", `INSERT INTO receipts (id, owner_id, workspace_id, property_id, payment_id, year, seq, number, issued_at, amount_minor,
				currency, payer, lines, status, updated_at)
			SELECT id, $1, (SELECT w.id FROM workspaces AS w WHERE w.landlord_id = $1), prop, pay, y, s, y || '-' || lpad(s::text, 6, '0'), issued, 95000, 'EUR', payer, '[]', 'issued', issued
			FROM (SELECT md5($2 || ':r:' || i || ':' || k)::uuid AS id, md5($2 || ':p:' || i)::uuid AS prop,
					md5($2 || ':pay:' || i || ':' || k)::uuid AS pay, 'Tenant ' || i AS payer, t.issued, yr.y,
					coalesce(b.last, 0) + row_number() OVER (PARTITION BY yr.y ORDER BY i, k) AS s
				FROM generate_series(1, $3::int) AS i CROSS JOIN generate_series(1, $5::int) AS k
				CROSS JOIN LATERAL (SELECT timestamptz '2022-09-03 09:00:00Z' + (k - 1) * interval '1 month' + i * interval '1 second' AS issued) AS t
				CROSS JOIN LATERAL (SELECT extract(year FROM t.issued)::int AS y) AS yr
				LEFT JOIN (SELECT year, max(seq) AS last FROM receipts WHERE owner_id = $1 GROUP BY year) AS b ON b.year = yr.y) AS r`,
			size.PaymentsPerUnit},
		{"receipt sequences", `INSERT INTO receipt_sequences (owner_id, year, last)
			SELECT $1, year, max(seq) FROM receipts WHERE owner_id = $1 GROUP BY year
			ON CONFLICT (owner_id, year) DO UPDATE SET last = excluded.last`, 0},
		{"documents", `INSERT INTO documents (id, property_id, contract_id, title, category, filename, content_type, size, sha256,
				uploaded_by, created_at, updated_at)
			SELECT md5($2 || ':d:' || i)::uuid, md5($2 || ':p:' || i)::uuid, md5($2 || ':c:' || i)::uuid, 'Lease', 'contract',
				'lease.pdf', 'application/pdf', 1000, repeat('0', 64), $1, $4, $4
			FROM generate_series(1, $3::int) AS i`, 0},
		{"counters", `INSERT INTO counters (id, property_id, kind, unit, name, created_at, updated_at)
			SELECT md5($2 || ':m:' || i)::uuid, md5($2 || ':p:' || i)::uuid, 'electricity', 'kWh', 'Meter ' || i, $4, $4
			FROM generate_series(1, $3::int) AS i`, 0},
		{"readings", `INSERT INTO counter_readings (id, counter_id, read_on, value_milli, consumption_milli, created_by, created_at)
			SELECT md5($2 || ':mr:' || i || ':' || k)::uuid, md5($2 || ':m:' || i)::uuid,
				(date '2025-12-01' + (k - 1) * interval '1 month')::date, k * 150000, CASE WHEN k > 1 THEN 150000 END, $1, $4
			FROM generate_series(1, $3::int) AS i, generate_series(1, $5::int) AS k`, size.ReadingsPerUnit},
	}
	start := time.Date(2022, 8, 1, 0, 0, 0, 0, time.UTC)
	for _, st := range steps {
		if size.OwnerOnly && !strings.HasPrefix(st.what, "workspace") && st.what != "properties" && st.what != "contragents" && st.what != "contracts" {
			continue
		}
		args := []any{ownerID, tag, size.Units, start}
		if st.per > 0 {
			args = append(args, st.per)
		}
		if st.what == "rent charges" {
			args = append(args, size.PaymentsPerUnit)
		}
		query, used := only(st.query, args)
		if _, err := tx.ExecContext(ctx, query, used...); err != nil {
			return fmt.Errorf("seed %s: %w", st.what, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	for _, t := range []string{"properties", "contragents", "contracts", "expenses", "charges", "payments",
		"payment_allocations", "receipts", "documents", "counters", "counter_readings", "ledger_lines", "ledger_entries"} {
		if _, err := db.ExecContext(ctx, "ANALYZE "+t); err != nil {
			return fmt.Errorf("seed: analyze %s: %w", t, err)
		}
	}
	return nil
}

var placeholder = regexp.MustCompile(`\$(\d+)`)

// only renumbers the placeholders query uses and returns their values:
// PostgreSQL cannot type a parameter the statement never mentions.
func only(query string, args []any) (string, []any) {
	renum := map[string]string{}
	var used []any
	out := placeholder.ReplaceAllStringFunc(query, func(m string) string {
		if r, ok := renum[m]; ok {
			return r
		}
		n, _ := strconv.Atoi(m[1:])
		used = append(used, args[n-1])
		renum[m] = "$" + strconv.Itoa(len(used))
		return renum[m]
	})
	return out, used
}

// Tag is a tag for Seed that no earlier call on this database used.
func Tag(ownerID int64) string {
	return strconv.FormatInt(ownerID, 10) + "x" + strconv.FormatInt(time.Now().UnixNano()%1e9, 36)
}
