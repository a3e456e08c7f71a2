package payments_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// Another user sends the owner's ids to every route of the module and gets
// 403; malformed or unknown ids get 404, no token 401; nothing changes.
func TestAccessControlOnEveryRoute(t *testing.T) {
	f := start(t)
	ch := f.manual(t, "Rent", 100, "2026-11-01")
	p := f.pay(t, map[string]any{"amount": 40, "method": "cash"})
	stranger := accountstest.NewUser(t, f.app)
	strangers := newProperty(t, f.app, stranger.Token)
	routes := append(f.app.RoutesUnder("/api/v1/properties/:propertyId/payments"), f.app.RoutesUnder("/api/v1/properties/:propertyId/balance")...)
	if len(routes) != 5 {
		t.Fatalf("routes %v", routes)
	}
	snap := func() map[string][]map[string]any {
		out := map[string][]map[string]any{}
		for _, table := range []string{"payments", "payment_allocations", "charges", "receipts"} {
			var rows []map[string]any
			if err := f.app.DB.NewSelect().Table(table).OrderExpr(orderOf(table)).Scan(context.Background(), &rows); err != nil {
				t.Fatal(err)
			}
			out[table] = rows
		}
		return out
	}
	before := snap()
	fill := func(path, prop, pay string) string {
		return strings.ReplaceAll(strings.ReplaceAll(path, ":propertyId", prop), ":paymentId", pay)
	}
	for _, rt := range routes {
		method, path := rt[0], rt[1]
		var body any
		if method == http.MethodPost {
			body = map[string]any{"amount": 10, "method": "cash", "reason": "x", "allocations": []any{map[string]any{"charge_id": ch.ID, "amount": 10}}}
		}
		send := func(path, token string) *testkit.Response {
			return f.app.Do(testkit.Request{Method: method, Path: path, Token: token, Body: body})
		}
		t.Run(method+" "+path, func(t *testing.T) {
			if res := send(fill(path, f.property, p.ID), stranger.Token); res.Status != http.StatusForbidden {
				t.Errorf("stranger: %d %s", res.Status, res.String())
			}
			if res := send(fill(path, f.property, p.ID), ""); res.Status != http.StatusUnauthorized {
				t.Errorf("no token: %d", res.Status)
			}
			for _, bad := range []string{"x", "019a0000-0000-7000-8000-000000000000"} {
				if res := send(fill(path, bad, p.ID), f.user.Token); res.Status != http.StatusNotFound {
					t.Errorf("property %q: %d", bad, res.Status)
				}
			}
			if strings.Contains(path, ":paymentId") {
				if res := send(fill(path, strangers, p.ID), stranger.Token); res.Status != http.StatusNotFound {
					t.Errorf("payment under another property: %d", res.Status)
				}
				for _, bad := range []string{"x", "019a0000-0000-7000-8000-000000000000", ch.ID} {
					if res := send(fill(path, f.property, bad), f.user.Token); res.Status != http.StatusNotFound {
						t.Errorf("payment %q: %d", bad, res.Status)
					}
				}
			}
		})
	}
	if !reflect.DeepEqual(before, snap()) {
		t.Fatal("a refused request changed something")
	}
}

// Credit of a payment goes to the charges refresh-all creates, in its
// transaction; a payment for a contract keeps its credit for that
// contract's charges.
func TestCreditGoesToChargesOfRefreshAll(t *testing.T) {
	f := start(t)
	f.app.Post(f.url("/expenses"), f.user.Token, map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 700, "start_date": "2026-09-01"}).
		Expect(http.StatusCreated)
	p := f.pay(t, map[string]any{"amount": 1000, "method": "bank_transfer", "paid_on": "2026-09-01"})
	if p.Unallocated != "1000.00" {
		t.Fatalf("payment %+v", p)
	}
	var r struct{ Created int }
	f.app.Post(f.url("/expenses/refresh-all?since=2026-09"), f.user.Token, nil).Expect(http.StatusOK).JSON(&r)
	if r.Created != 3 {
		t.Fatalf("catch-up %+v", r)
	}
	var l chargeList
	f.app.Get(f.url("/charges"), f.user.Token).Expect(http.StatusOK).JSON(&l)
	got := []string{}
	for _, c := range l.Charges {
		got = append(got, c.Period+":"+c.Status+":"+string(c.PaidAmount))
	}
	want := []string{"2026-09:paid:700.00", "2026-10:partially_paid:300.00", "2026-11:unpaid:0.00"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("charges %v, want %v", got, want)
	}
	if b := f.balance(t, ""); b.Credit != "0.00" || b.Outstanding != "1100.00" || b.Paid != "1000.00" {
		t.Fatalf("balance %+v", b)
	}
}
