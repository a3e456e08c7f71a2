package expenses_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestManualChargeCreateAndList(t *testing.T) {
	f := start(t)
	var c charge
	f.app.Post(f.charges(), f.user.Token, map[string]any{
		"name": " Repair ", "amount": 250, "due_date": "2026-12-15",
		// Not settable: ignored.
		"id": "01900000-0000-7000-8000-000000000000", "expense_id": "01900000-0000-7000-8000-000000000001",
		"property_id": "x", "created_at": "2000-01-01T00:00:00Z",
	}).Expect(http.StatusCreated).JSON(&c)
	want := charge{ID: c.ID, PropertyID: f.property, ExpenseID: nil, Name: "Repair", Amount: 250.0, Currency: "EUR",
		Period: "2026-12", DueDate: "2026-12-15", Status: "unpaid", CreatedAt: "2026-11-22T10:00:00Z"}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("created %+v\nwant    %+v", c, want)
	}
	var paid charge
	res := f.app.Post(f.charges(), f.user.Token, map[string]any{
		"name": "Deposit", "amount": 0.1, "due_date": "2026-11-01", "period": "2026-Q4", "status": "paid", "currency": "usd",
	}).Expect(http.StatusCreated)
	if !strings.Contains(res.String(), `"amount":0.10`) || !strings.Contains(res.String(), `"expense_id":null`) {
		t.Fatalf("amount not written with 2 decimals or expense_id not null: %s", res.String())
	}
	res.JSON(&paid)
	if paid.Period != "2026-Q4" || paid.Status != "paid" || paid.Currency != "USD" || paid.Amount != 0.1 {
		t.Fatalf("paid charge %+v", paid)
	}

	l := f.allCharges(t, "")
	if l.Total != 2 || len(l.Charges) != 2 || l.Charges[0].ID != paid.ID || l.Charges[1].ID != c.ID {
		t.Fatalf("list (by due date): %+v", l)
	}
	if l := f.allCharges(t, "&status=paid"); l.Total != 1 || l.Charges[0].ID != paid.ID {
		t.Fatalf("status=paid: %+v", l)
	}
	if l := f.allCharges(t, "&status=unpaid&period=2026-12"); l.Total != 1 || l.Charges[0].ID != c.ID {
		t.Fatalf("status=unpaid&period=2026-12: %+v", l)
	}
	if l := f.allCharges(t, "&status=cancelled"); l.Total != 0 || len(l.Charges) != 0 {
		t.Fatalf("status=cancelled: %+v", l)
	}
	var page chargeList
	f.app.Get(f.charges()+"?page=2&per_page=1", f.user.Token).Expect(http.StatusOK).JSON(&page)
	if page.Total != 2 || page.Page != 2 || page.PerPage != 1 || len(page.Charges) != 1 || page.Charges[0].ID != c.ID {
		t.Fatalf("page 2: %+v", page)
	}
	for _, q := range []string{"period=2026-13", "period=26", "status=open", "page=0", "per_page=201"} {
		res := f.app.Get(f.charges()+"?"+q, f.user.Token).Expect(http.StatusBadRequest)
		if res.Map()["error"] != "validation_failed" {
			t.Fatalf("%s: %s", q, res.String())
		}
	}
}

func TestManualChargeRejectsBadInput(t *testing.T) {
	f := start(t)
	valid := func(k string, v any) map[string]any {
		b := map[string]any{"name": "Repair", "amount": 10, "due_date": "2026-12-01"}
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	cases := []struct {
		name   string
		body   any
		detail string
	}{
		{"empty object", map[string]any{}, "name: is required"},
		{"name missing", valid("name", nil), "name: is required"},
		{"name too long", valid("name", strings.Repeat("x", 201)), "name: must be at most 200 characters"},
		{"amount missing", valid("amount", nil), "amount: is required"},
		{"amount 3 decimals", `{"name":"R","due_date":"2026-12-01","amount":0.001}`, "amount: must have at most 2 decimals"},
		{"amount negative", valid("amount", -10), "amount: must be more than 0"},
		{"amount as string", valid("amount", "10"), "amount: must be a JSON number"},
		{"due date missing", valid("due_date", nil), "due_date: is required"},
		{"due date impossible", valid("due_date", "2026-11-31"), "due_date: must be a date in the form YYYY-MM-DD"},
		{"period malformed", valid("period", "2026-Q5"), "period: must be a month (2026-11), a quarter (2026-Q4) or a year (2026)"},
		{"period too long", valid("period", "2026-11-01"), "period: must be at most 7 characters"},
		{"status unknown", valid("status", "open"), "status: must be one of unpaid, paid, cancelled"},
		{"currency unknown", valid("currency", "EUX"), "currency: must be an ISO 4217 currency code such as EUR"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.app.Post(f.charges(), f.user.Token, tc.body).Expect(http.StatusBadRequest)
			if res.Map()["error"] != "validation_failed" || !strings.Contains(res.String(), tc.detail) {
				t.Fatalf("body %s, want validation_failed with %q", res.String(), tc.detail)
			}
		})
	}
	if n := rows(t, f.app, "charges"); n != 0 {
		t.Fatalf("bad input stored %d charges", n)
	}
}

func TestDeletingAnExpenseKeepsItsCharges(t *testing.T) {
	f := start(t)
	e := f.newExpense(t, map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 800, "start_date": "2026-01-01"})
	if got := f.refreshAll(t); got != (refreshResult{Created: 1}) {
		t.Fatalf("refresh %+v", got)
	}
	before := f.allCharges(t, "")
	f.app.Delete(f.expenses()+"/"+e.ID, f.user.Token).Expect(http.StatusNoContent)
	after := f.allCharges(t, "")
	if !reflect.DeepEqual(before, after) || after.Total != 1 || *after.Charges[0].ExpenseID != e.ID {
		t.Fatalf("charges before %+v\nafter %+v", before, after)
	}
	// The deleted expense generates nothing more and is not counted.
	if got := f.refreshAll(t); got != (refreshResult{}) {
		t.Fatalf("refresh after delete %+v", got)
	}
}

func TestDeletingAPropertyWithChargesIsRefused(t *testing.T) {
	f := start(t)
	f.newExpense(t, map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 800, "start_date": "2026-01-01"})
	f.refreshAll(t)
	path := "/api/v1/properties/" + f.property
	res := f.app.Delete(path, f.user.Token).Expect(http.StatusConflict)
	if m := res.Map(); m["error"] != "has_charges" || m["message"] == "" {
		t.Fatalf("409 body %s", res.String())
	}
	if p, e, c := rows(t, f.app, "properties"), rows(t, f.app, "expenses"), rows(t, f.app, "charges"); p != 1 || e != 1 || c != 1 {
		t.Fatalf("after the refused delete: %d properties, %d expenses, %d charges", p, e, c)
	}
	f.app.Get(path, f.user.Token).Expect(http.StatusOK)

	// A manual charge holds the property as well.
	other := newProperty(t, f.app, f.user.Token)
	f.app.Post("/api/v1/properties/"+other+"/charges", f.user.Token,
		map[string]any{"name": "Fee", "amount": 5, "due_date": "2026-12-01"}).Expect(http.StatusCreated)
	f.app.Delete("/api/v1/properties/"+other, f.user.Token).Expect(http.StatusConflict)
}

func TestDeletingAPropertyWithoutChargesDeletesItsExpenses(t *testing.T) {
	f := start(t)
	keep := newProperty(t, f.app, f.user.Token)
	f.app.Post("/api/v1/properties/"+keep+"/expenses", f.user.Token,
		map[string]any{"name": "Elsewhere", "type": "YEARLY", "amount": 1, "start_date": "2026-01-01"}).Expect(http.StatusCreated)
	f.newExpense(t, map[string]any{"name": "Rent", "type": "MANUAL", "amount": 800, "start_date": "2026-01-01"})
	gone := f.newExpense(t, map[string]any{"name": "Old", "type": "MONTHLY", "amount": 1, "start_date": "2026-01-01"})
	f.app.Delete(f.expenses()+"/"+gone.ID, f.user.Token).Expect(http.StatusNoContent)

	f.app.Delete("/api/v1/properties/"+f.property, f.user.Token).Expect(http.StatusNoContent)
	f.app.Get(f.expenses(), f.user.Token).Expect(http.StatusNotFound)
	if p, e := rows(t, f.app, "properties"), rows(t, f.app, "expenses"); p != 1 || e != 1 {
		t.Fatalf("after delete: %d properties, %d expenses; want only the other property's", p, e)
	}
}
