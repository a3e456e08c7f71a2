// Package paymentstest checks the money rules of RENTAL-CORE against a
// test app's database; every module whose tests move money calls it.
package paymentstest

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// CheckInvariants checks the money rules of RENTAL-CORE over the whole
// database: every charge's paid_amount is the sum of its live allocations
// and within 0..amount, its stored status agrees, and per property the
// posted payments equal their live allocations plus their credit; and no
// allocation refers to a payment or charge that does not exist.
func CheckInvariants(t testing.TB, app *testkit.App) {
	t.Helper()
	ctx := context.Background()
	var bad []map[string]any
	// One aggregate joined to the charges: allocations have no index by
	// charge, and a subquery per charge would scan them once per charge.
	err := app.DB.NewRaw(`SELECT c.id, c.amount_minor, c.paid_amount_minor, c.status, COALESCE(s.allocated, 0) AS allocated
		FROM charges c LEFT JOIN (
			SELECT a.charge_id, SUM(a.amount_minor) AS allocated FROM payment_allocations a
			JOIN payments p ON p.id = a.payment_id WHERE a.voided_at IS NULL AND p.status = 'posted'
			GROUP BY a.charge_id) s ON s.charge_id = c.id`).Scan(ctx, &bad)
	if err != nil {
		t.Fatalf("invariants: %v", err)
	}
	for _, r := range bad {
		amount, paid, allocated := toInt(r["amount_minor"]), toInt(r["paid_amount_minor"]), toInt(r["allocated"])
		status := fmt.Sprint(r["status"])
		switch {
		case paid != allocated:
			t.Errorf("charge %v: paid_amount %d, allocations %d", r["id"], paid, allocated)
		case paid < 0 || paid > amount:
			t.Errorf("charge %v: paid_amount %d outside 0..%d", r["id"], paid, amount)
		case status == "paid" && paid != amount, status == "unpaid" && paid == amount, status == "cancelled" && paid != 0:
			t.Errorf("charge %v: status %s with paid %d of %d", r["id"], status, paid, amount)
		}
	}
	var props []map[string]any
	err = app.DB.NewRaw(`SELECT p.property_id,
			SUM(p.amount_minor) AS posted,
			SUM(p.unallocated_minor) AS credit,
			COALESCE(SUM((SELECT SUM(a.amount_minor) FROM payment_allocations a WHERE a.payment_id = p.id AND a.voided_at IS NULL)), 0) AS allocated
		FROM payments p WHERE p.status = 'posted' GROUP BY p.property_id`).Scan(ctx, &props)
	if err != nil {
		t.Fatalf("invariants: %v", err)
	}
	for _, r := range props {
		if toInt(r["posted"]) != toInt(r["allocated"])+toInt(r["credit"]) {
			t.Errorf("property %v: posted %v != allocated %v + credit %v", r["property_id"], r["posted"], r["allocated"], r["credit"])
		}
	}
	// What foreign keys held before they were dropped on PostgreSQL for
	// speed (see the payments README): the service must keep every
	// reference of an allocation whole itself.
	for what, q := range map[string]string{
		"allocations of no payment": `SELECT COUNT(*) FROM payment_allocations a WHERE NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = a.payment_id)`,
		"allocations of no charge":  `SELECT COUNT(*) FROM payment_allocations a WHERE NOT EXISTS (SELECT 1 FROM charges c WHERE c.id = a.charge_id)`,
	} {
		var n int
		if err := app.DB.NewRaw(q).Scan(ctx, &n); err != nil || n != 0 {
			t.Errorf("%s: %d (%v)", what, n, err)
		}
	}
	var leftovers int
	err = app.DB.NewRaw(`SELECT COUNT(*) FROM payments p WHERE p.status = 'reversed' AND (p.unallocated_minor <> 0 OR EXISTS
		(SELECT 1 FROM payment_allocations a WHERE a.payment_id = p.id AND a.voided_at IS NULL))`).Scan(ctx, &leftovers)
	if err != nil || leftovers != 0 {
		t.Errorf("reversed payments with credit or live allocations: %d (%v)", leftovers, err)
	}
	checkLedger(t, app)
}

func toInt(v any) int64 {
	if v == nil {
		return 0
	}
	switch n := v.(type) {
	case int64:
		return n
	case int32:
		return int64(n)
	case float64:
		return int64(n)
	case []byte:
		x, _ := strconv.ParseInt(string(n), 10, 64)
		return x
	case string:
		x, _ := strconv.ParseInt(n, 10, 64)
		return x
	}
	panic(fmt.Sprintf("toInt %T", v))
}
