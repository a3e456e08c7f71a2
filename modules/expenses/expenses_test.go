package expenses_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestExpenseCreateGetUpdateDelete(t *testing.T) {
	f := start(t)
	created := f.newExpense(t, map[string]any{
		"name": " Cleaning ", "type": "monthly", "amount": 1200.5, "start_date": "2026-01-01",
		// Not settable: ignored.
		"id": "01900000-0000-7000-8000-000000000000", "property_id": "01900000-0000-7000-8000-000000000001",
		"created_at": "2000-01-01T00:00:00Z", "updated_at": "2000-01-01T00:00:00Z",
	})
	want := expense{
		ID: created.ID, PropertyID: f.property, Name: "Cleaning", Type: "MONTHLY", Amount: 1200.5,
		Currency: "EUR", IsActive: true, StartDate: "2026-01-01", EndDate: nil, DueDay: 1,
		CreatedAt: "2026-11-22T10:00:00Z", UpdatedAt: "2026-11-22T10:00:00Z",
	}
	if !reflect.DeepEqual(created, want) {
		t.Fatalf("created %+v\nwant    %+v", created, want)
	}
	if len(created.ID) != 36 || created.ID[14] != '7' || strings.HasPrefix(created.ID, "01900000") {
		t.Fatalf("id %q is not a fresh UUID v7", created.ID)
	}
	path := f.expenses() + "/" + created.ID
	res := f.app.Get(path, f.user.Token).Expect(http.StatusOK)
	if !strings.Contains(res.String(), `"amount":1200.50`) || !strings.Contains(res.String(), `"end_date":null`) {
		t.Fatalf("amount is not written with 2 decimals or end_date not null: %s", res.String())
	}
	var got expense
	res.JSON(&got)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("get %+v\nwant %+v", got, want)
	}

	f.app.Clock.Advance(time.Hour)
	var updated expense
	f.app.Put(path, f.user.Token, map[string]any{
		"amount": 0.07, "currency": "chf", "end_date": "2026-12-31", "due_day": 28, "is_active": false,
		"type": "QUARTERLY", "property_id": "x",
	}).Expect(http.StatusOK).JSON(&updated)
	want.Amount, want.Currency, want.EndDate, want.DueDay, want.IsActive, want.Type, want.UpdatedAt =
		0.07, "CHF", ptr("2026-12-31"), 28, false, "QUARTERLY", "2026-11-22T11:00:00Z"
	if !reflect.DeepEqual(updated, want) {
		t.Fatalf("updated %+v\nwant    %+v", updated, want)
	}
	// end_date: null removes the end; other fields stay.
	f.app.Put(path, f.user.Token, map[string]any{"end_date": nil}).Expect(http.StatusOK).JSON(&updated)
	want.EndDate = nil
	if !reflect.DeepEqual(updated, want) {
		t.Fatalf("after clearing end_date %+v\nwant %+v", updated, want)
	}
	f.app.Get(path, f.user.Token).Expect(http.StatusOK).JSON(&got)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("stored %+v\nwant   %+v", got, want)
	}

	f.app.Delete(path, f.user.Token).Expect(http.StatusNoContent)
	f.app.Get(path, f.user.Token).Expect(http.StatusNotFound)
	f.app.Put(path, f.user.Token, map[string]any{"name": "x"}).Expect(http.StatusNotFound)
	f.app.Delete(path, f.user.Token).Expect(http.StatusNotFound)
	var l struct {
		Expenses []expense `json:"expenses"`
		Total    int       `json:"total"`
	}
	f.app.Get(f.expenses(), f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 0 || len(l.Expenses) != 0 {
		t.Fatalf("deleted expense still listed: %+v", l)
	}
}

func TestExpenseRejectsBadInput(t *testing.T) {
	f := start(t)
	valid := func(change map[string]any) map[string]any {
		b := map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 100, "start_date": "2026-01-01"}
		for k, v := range change {
			if v == "<absent>" {
				delete(b, k)
				continue
			}
			b[k] = v
		}
		return b
	}
	raw := func(amount string) string {
		return `{"name":"Rent","type":"MONTHLY","start_date":"2026-01-01","amount":` + amount + `}`
	}
	cases := []struct {
		name   string
		body   any
		detail string
	}{
		{"no body", "", "body: a JSON object is required"},
		{"malformed", `{"name": "x",}`, "body: malformed JSON"},
		{"name missing", valid(map[string]any{"name": "<absent>"}), "name: is required"},
		{"name blank", valid(map[string]any{"name": "  "}), "name: must be at least 1 characters"},
		{"name too long", valid(map[string]any{"name": strings.Repeat("n", 201)}), "name: must be at most 200 characters"},
		{"type missing", valid(map[string]any{"type": "<absent>"}), "type: is required"},
		{"type unknown", valid(map[string]any{"type": "WEEKLY"}), "type: must be one of MANUAL, MONTHLY, QUARTERLY, YEARLY"},
		{"amount missing", valid(map[string]any{"amount": "<absent>"}), "amount: is required"},
		{"amount 3 decimals", raw("10.005"), "amount: must have at most 2 decimals"},
		{"amount negative", raw("-5"), "amount: must be more than 0"},
		{"amount zero", raw("0.00"), "amount: must be more than 0"},
		{"amount absurd", raw("1000000000"), "amount: must be at most 999999999.99 in size"},
		{"amount huge literal", raw(strings.Repeat("9", 400)), "amount: must be at most 999999999.99 in size"},
		{"amount exponent", raw("1e3"), "amount: must be written without an exponent"},
		{"amount as string", raw(`"10.00"`), "amount: must be a JSON number such as 1200.50"},
		{"amount null", raw("null"), "amount: must be a JSON number such as 1200.50"},
		{"currency unknown", valid(map[string]any{"currency": "ABC"}), "currency: must be an ISO 4217 currency code such as EUR"},
		{"start missing", valid(map[string]any{"start_date": "<absent>"}), "start_date: is required"},
		{"start impossible", valid(map[string]any{"start_date": "2026-02-30"}), "start_date: must be a date in the form YYYY-MM-DD"},
		{"start with time", valid(map[string]any{"start_date": "2026-01-01T00:00:00Z"}), "start_date: must be a date in the form YYYY-MM-DD"},
		{"start a number", valid(map[string]any{"start_date": 20260101}), "start_date: must be a date in the form YYYY-MM-DD"},
		{"end before start", valid(map[string]any{"end_date": "2025-12-31"}), "end_date: must not be before start_date (2026-01-01)"},
		{"end malformed", valid(map[string]any{"end_date": "31.12.2026"}), "end_date: must be a date in the form YYYY-MM-DD"},
		{"due day 0", valid(map[string]any{"due_day": 0}), "due_day: must be at least 1"},
		{"due day 29", valid(map[string]any{"due_day": 29}), "due_day: must be at most 28"},
		{"due day fraction", valid(map[string]any{"due_day": 1.5}), "due_day: must be a integer"},
		{"is_active not bool", valid(map[string]any{"is_active": "yes"}), "is_active: must be a boolean"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := f.app.Post(f.expenses(), f.user.Token, tc.body).Expect(http.StatusBadRequest)
			if res.Map()["error"] != "validation_failed" || !strings.Contains(res.String(), tc.detail) {
				t.Fatalf("body %s, want validation_failed with %q", res.String(), tc.detail)
			}
		})
	}
	if n := rows(t, f.app, "expenses"); n != 0 {
		t.Fatalf("bad input stored %d expenses", n)
	}
	// The boundaries themselves are fine.
	e := f.newExpense(t, valid(map[string]any{"amount": 999999999.99, "due_day": 28, "end_date": "2026-01-01", "currency": "usd", "type": "YEARLY"}))
	if e.Amount != 999999999.99 || e.DueDay != 28 || e.Currency != "USD" || *e.EndDate != "2026-01-01" {
		t.Fatalf("boundary expense: %+v", e)
	}
}

func TestExpenseUpdateRejectsBadInputAndChangesNothing(t *testing.T) {
	f := start(t)
	e := f.newExpense(t, map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 100, "start_date": "2026-03-01", "end_date": "2026-12-31"})
	path := f.expenses() + "/" + e.ID
	f.app.Clock.Advance(time.Minute)
	for _, body := range []any{
		map[string]any{"start_date": "2027-01-01"}, // after the stored end
		map[string]any{"end_date": "2026-02-28"},   // before the stored start
		map[string]any{"amount": -1},
		map[string]any{"name": ""},
		map[string]any{"type": "DAILY"},
		map[string]any{"start_date": nil},
		`{"amount": 1.234}`,
	} {
		res := f.app.Put(path, f.user.Token, body).Expect(http.StatusBadRequest)
		if res.Map()["error"] != "validation_failed" {
			t.Fatalf("%v: %s", body, res.String())
		}
	}
	var got expense
	f.app.Get(path, f.user.Token).Expect(http.StatusOK).JSON(&got)
	if !reflect.DeepEqual(got, e) {
		t.Fatalf("after rejected updates %+v\nwant %+v", got, e)
	}
}

func TestExpenseListIsPaginated(t *testing.T) {
	f := start(t)
	var ids []string
	for range 3 {
		ids = append(ids, f.newExpense(t, map[string]any{"name": "E", "type": "MANUAL", "amount": 1, "start_date": "2026-01-01"}).ID)
	}
	other := newProperty(t, f.app, f.user.Token)
	f.app.Post("/api/v1/properties/"+other+"/expenses", f.user.Token,
		map[string]any{"name": "Elsewhere", "type": "MANUAL", "amount": 1, "start_date": "2026-01-01"}).Expect(http.StatusCreated)
	var l struct {
		Expenses []expense `json:"expenses"`
		Total    int       `json:"total"`
		Page     int       `json:"page"`
		PerPage  int       `json:"per_page"`
	}
	f.app.Get(f.expenses()+"?page=2&per_page=2", f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 3 || l.Page != 2 || l.PerPage != 2 || len(l.Expenses) != 1 || l.Expenses[0].ID != ids[2] {
		t.Fatalf("page 2: %+v", l)
	}
	f.app.Get(f.expenses(), f.user.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 3 || l.PerPage != 50 || len(l.Expenses) != 3 || l.Expenses[0].ID != ids[0] {
		t.Fatalf("default page: %+v", l)
	}
	f.app.Get(f.expenses()+"?per_page=500", f.user.Token).Expect(http.StatusBadRequest)
	// An expense is reached only under its own property.
	f.app.Get("/api/v1/properties/"+other+"/expenses/"+ids[0], f.user.Token).Expect(http.StatusNotFound)
	f.app.Get(f.expenses()+"/not-a-uuid", f.user.Token).Expect(http.StatusNotFound)
	f.app.Get(f.expenses()+"/refresh-all", f.user.Token).Expect(http.StatusNotFound)
}
