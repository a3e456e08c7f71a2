package payments_test

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"sync"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// Oldest first, partial, full, credit to a later charge, balance, and a
// reversal that restores every charge exactly.
func TestPaymentLifecycle(t *testing.T) {
	f := start(t)
	a := f.manual(t, "October", 300, "2026-10-01")
	b := f.manual(t, "November", 300, "2026-11-01")
	c := f.manual(t, "December", 300, "2026-12-01")

	p := f.pay(t, map[string]any{"amount": 450, "method": "bank_transfer", "paid_on": "2026-11-05", "reference": "Nov"})
	if p.Status != "posted" || p.Unallocated != "0.00" || len(p.Allocations) != 2 ||
		p.Allocations[0] != (allocation{a.ID, "300.00"}) || p.Allocations[1] != (allocation{b.ID, "150.00"}) {
		t.Fatalf("payment %+v", p)
	}
	if got := f.charge(t, a.ID); got.Status != "paid" || got.PaidAmount != "300.00" || got.Outstanding != "0.00" {
		t.Errorf("a %+v", got)
	}
	if got := f.charge(t, b.ID); got.Status != "partially_paid" || got.PaidAmount != "150.00" || got.Outstanding != "150.00" {
		t.Errorf("b %+v", got)
	}
	var l chargeList
	f.app.Get(f.url("/charges?status=partially_paid"), f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 || l.Charges[0].ID != b.ID {
		t.Errorf("partially_paid filter %+v", l)
	}
	f.app.Get(f.url("/charges?status=unpaid"), f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 || l.Charges[0].ID != c.ID {
		t.Errorf("unpaid filter %+v", l)
	}
	want := balance{Currency: "EUR", Charged: "900.00", Paid: "450.00", Outstanding: "450.00", Overdue: "150.00", Credit: "0.00", AsOf: "2026-11-22"}
	if got := f.balance(t, ""); got != want {
		t.Errorf("balance %+v\nwant    %+v", got, want)
	}
	if got := f.balance(t, "?as_of=2026-12-02"); got.Overdue != "450.00" || got.AsOf != "2026-12-02" {
		t.Errorf("balance as of 2026-12-02 %+v", got)
	}

	// 600 pays b and c (450) and keeps 150 credit for a later charge.
	q := f.pay(t, map[string]any{"amount": 600, "method": "cash"})
	if q.Unallocated != "150.00" || len(q.Allocations) != 2 {
		t.Fatalf("second payment %+v", q)
	}
	d := f.manual(t, "January", 200, "2027-01-01")
	if d.Status != "partially_paid" || d.PaidAmount != "150.00" {
		t.Fatalf("credit not used on the new charge: %+v", d)
	}
	f.app.Get(f.url("/payments/"+q.ID), f.user.Token).Expect(http.StatusOK).JSON(&q)
	if q.Unallocated != "0.00" || len(q.Allocations) != 3 || q.Allocations[2] != (allocation{d.ID, "150.00"}) {
		t.Fatalf("second payment after the new charge %+v", q)
	}
	if got := f.balance(t, ""); got.Paid != "1050.00" || got.Outstanding != "50.00" || got.Credit != "0.00" || got.Charged != "1100.00" {
		t.Errorf("balance %+v", got)
	}

	// Reversing the first payment takes back exactly what it gave: a owes
	// all again, b keeps the second payment's 150.
	before := []charge{f.charge(t, a.ID), f.charge(t, b.ID)}
	var r payment
	f.app.Post(f.url("/payments/"+p.ID+"/reverse"), f.user.Token, map[string]any{"reason": "bounced"}).Expect(http.StatusOK).JSON(&r)
	if r.Status != "reversed" || len(r.Allocations) != 0 || r.Unallocated != "0.00" {
		t.Fatalf("reversed %+v", r)
	}
	after := []charge{f.charge(t, a.ID), f.charge(t, b.ID)}
	if after[0].PaidAmount != "0.00" || after[0].Status != "unpaid" || after[1].PaidAmount != "150.00" || after[1].Status != "partially_paid" {
		t.Fatalf("after reversal %+v (before %+v)", after, before)
	}
	if res := f.app.Post(f.url("/payments/"+p.ID+"/reverse"), f.user.Token, map[string]any{"reason": "again"}).Expect(http.StatusConflict); res.Map()["error"] != "already_reversed" {
		t.Fatal(res.String())
	}
	f.app.Post(f.url("/payments/"+q.ID+"/reverse"), f.user.Token, map[string]any{}).Expect(http.StatusBadRequest)

	var list struct {
		Payments []payment `json:"payments"`
		Total    int       `json:"total"`
	}
	f.app.Get(f.url("/payments?status=reversed"), f.user.Token).Expect(http.StatusOK).JSON(&list)
	if list.Total != 1 || list.Payments[0].ID != p.ID {
		t.Errorf("reversed list %+v", list)
	}
	f.app.Get(f.url("/payments?from=2026-11-06&to=2026-11-30"), f.user.Token).Expect(http.StatusOK).JSON(&list)
	if list.Total != 1 || list.Payments[0].ID != q.ID {
		t.Errorf("dated list %+v", list)
	}
}

// A manual charge entered as paid is settled by a payment the service
// records, so paid_amount stays the sum of allocations.
func TestChargeEnteredPaid(t *testing.T) {
	f := start(t)
	var c charge
	f.app.Post(f.url("/charges"), f.user.Token, map[string]any{"name": "Repair", "amount": 80.5, "due_date": "2026-11-10", "status": "paid"}).
		Expect(http.StatusCreated).JSON(&c)
	if c.Status != "paid" || c.PaidAmount != "80.50" {
		t.Fatalf("charge %+v", c)
	}
	var list struct {
		Payments []payment `json:"payments"`
	}
	f.app.Get(f.url("/payments"), f.user.Token).Expect(http.StatusOK).JSON(&list)
	if len(list.Payments) != 1 || list.Payments[0].Allocations[0] != (allocation{c.ID, "80.50"}) {
		t.Fatalf("payments %+v", list)
	}
}

// Every refused payment answers 400 or 409 naming the problem and writes
// nothing.
func TestPaymentRefusals(t *testing.T) {
	f := start(t)
	open := f.manual(t, "Rent", 100, "2026-11-01")
	var cancelled charge
	f.app.Post(f.url("/charges"), f.user.Token, map[string]any{"name": "Void", "amount": 10, "due_date": "2026-11-01", "status": "cancelled"}).
		Expect(http.StatusCreated).JSON(&cancelled)
	other := fixture{app: f.app, user: f.user, property: newProperty(t, f.app, f.user.Token)}
	foreign := other.manual(t, "Elsewhere", 50, "2026-11-01")

	snap := func() map[string][]map[string]any {
		out := map[string][]map[string]any{}
		for _, table := range []string{"payments", "payment_allocations", "charges"} {
			var rows []map[string]any
			if err := f.app.DB.NewSelect().Table(table).OrderExpr(orderOf(table)).Scan(context.Background(), &rows); err != nil {
				t.Fatal(err)
			}
			out[table] = rows
		}
		return out
	}
	before := snap()
	cases := []struct {
		name   string
		body   any
		status int
		code   string
		detail string
	}{
		{"other currency", map[string]any{"amount": 10, "method": "cash", "currency": "USD"}, 400, "validation_failed", "currency: must be the property's currency, EUR"},
		{"future", map[string]any{"amount": 10, "method": "cash", "paid_on": "2026-11-23"}, 400, "validation_failed", "paid_on: must not be in the future"},
		{"zero", map[string]any{"amount": 0, "method": "cash"}, 400, "validation_failed", "amount: must be more than 0"},
		{"negative", map[string]any{"amount": -5, "method": "cash"}, 400, "validation_failed", "amount: must be more than 0"},
		{"three decimals", map[string]any{"amount": json.Number("10.005"), "method": "cash"}, 400, "validation_failed", "amount: must have at most 2 decimals"},
		{"string amount", map[string]any{"amount": "10", "method": "cash"}, 400, "validation_failed", "amount: must be a JSON number such as 1200.50"},
		{"no amount", map[string]any{"method": "cash"}, 400, "validation_failed", "amount: is required"},
		{"bad method", map[string]any{"amount": 1, "method": "wire"}, 400, "validation_failed", "method: must be one of bank_transfer, cash, card, cheque, direct_debit, set_off, other"},
		{"long reference", map[string]any{"amount": 1, "method": "cash", "reference": string(make([]byte, 201))}, 400, "validation_failed", ""},
		{"unknown contract", map[string]any{"amount": 1, "method": "cash", "contract_id": "019a0000-0000-7000-8000-000000000000"}, 400, "validation_failed", "contract_id: must be a contract of this property"},
		{"unknown payer", map[string]any{"amount": 1, "method": "cash", "payer_id": "019a0000-0000-7000-8000-000000000000"}, 400, "validation_failed", "payer_id: must be a contragent of the property's owner"},
		{"foreign charge", map[string]any{"amount": 50, "method": "cash", "allocations": []any{map[string]any{"charge_id": foreign.ID, "amount": 50}}}, 400, "validation_failed", "allocations[0].charge_id: not a charge of this property"},
		{"twice", map[string]any{"amount": 50, "method": "cash", "allocations": []any{map[string]any{"charge_id": open.ID, "amount": 10}, map[string]any{"charge_id": open.ID, "amount": 10}}}, 400, "validation_failed", "allocations[1].charge_id: appears twice"},
		{"more than the amount", map[string]any{"amount": 5, "method": "cash", "allocations": []any{map[string]any{"charge_id": open.ID, "amount": 10}}}, 400, "validation_failed", "allocations: add up to 10.00, more than the amount 5.00"},
		{"cancelled charge", map[string]any{"amount": 10, "method": "cash", "allocations": []any{map[string]any{"charge_id": cancelled.ID, "amount": 10}}}, 409, "charge_cancelled", ""},
		{"more than owed", map[string]any{"amount": 150, "method": "cash", "allocations": []any{map[string]any{"charge_id": open.ID, "amount": 100.01}}}, 409, "over_allocated", ""},
		{"malformed", `{"amount":`, 400, "validation_failed", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.url("/payments"), Token: f.user.Token, Body: tc.body}).Expect(tc.status)
			m := res.Map()
			if m["error"] != tc.code {
				t.Errorf("error %v, want %s: %s", m["error"], tc.code, res.String())
			}
			if tc.detail != "" {
				found := false
				for _, d := range m["details"].([]any) {
					found = found || d == tc.detail
				}
				if !found {
					t.Errorf("details %v lack %q", m["details"], tc.detail)
				}
			}
		})
	}
	if after := snap(); !reflect.DeepEqual(before, after) {
		t.Fatal("a refused payment wrote something")
	}
}

// 20 concurrent payments on the same charges never allocate more than is
// owed: each either finds money owed or keeps its amount as credit.
func TestConcurrentPaymentsNeverOverAllocate(t *testing.T) {
	f := start(t)
	ids := []string{f.manual(t, "A", 100, "2026-10-01").ID, f.manual(t, "B", 100, "2026-11-01").ID}
	var wg sync.WaitGroup
	statuses := make([]int, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := map[string]any{"amount": 30, "method": "card"}
			if i%2 == 0 {
				body["allocations"] = []any{map[string]any{"charge_id": ids[i/2%2], "amount": 30}}
			}
			statuses[i] = f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.url("/payments"), Token: f.user.Token, Body: body}).Status
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
		default:
			t.Errorf("status %d", s)
		}
	}
	b := f.balance(t, "")
	if b.Charged != "200.00" || b.Outstanding != "0.00" {
		t.Errorf("balance %+v after %d payments", b, created)
	}
	for _, id := range ids {
		if c := f.charge(t, id); c.PaidAmount != "100.00" || c.Status != "paid" {
			t.Errorf("charge %+v", c)
		}
	}
}

// Every method is stored and read back on both engines: cheque, direct
// debit and set-off were added by a migration that changed the table's
// CHECK (on SQLite by rebuilding the table, its foreign keys intact).
func TestEveryPaymentMethod(t *testing.T) {
	f := start(t)
	c := f.manual(t, "Rent", 100, "2026-11-01")
	for _, m := range []string{"bank_transfer", "cash", "card", "cheque", "direct_debit", "set_off", "other"} {
		var p payment
		f.app.Post(f.url("/payments"), f.user.Token, map[string]any{"amount": 1, "method": m,
			"allocations": []map[string]any{{"charge_id": c.ID, "amount": 1}}}).Expect(http.StatusCreated).JSON(&p)
		var got struct {
			Method string `json:"method"`
		}
		f.app.Get(f.url("/payments/"+p.ID), f.user.Token).Expect(http.StatusOK).JSON(&got)
		if got.Method != m {
			t.Errorf("method %s read back as %s", m, got.Method)
		}
	}
	// The allocations' foreign key still points at the rebuilt table.
	if _, err := f.app.DB.NewInsert().Table("payment_allocations").Value("payment_id", "?", "019a0000-0000-7000-8000-000000000000").
		Value("charge_id", "?", c.ID).Value("property_id", "?", f.property).Value("amount_minor", "1").
		Value("created_at", "?", f.app.Clock.Now()).Exec(t.Context()); err == nil {
		t.Error("an allocation of no payment was stored: the foreign key is gone")
	}
}
