package expenses_test

import (
	"net/http"
	"slices"
	"testing"
)

// Charges are listed by due date, then id: a cursor in the middle of
// charges that share a due date resumes exactly after the last one seen,
// with filters, on both engines.
func TestChargeCursorsWithTies(t *testing.T) {
	f := start(t)
	dues := []string{"2026-12-01", "2026-11-15", "2026-11-15", "2026-11-15", "2026-11-15", "2026-10-01", "2026-11-15"}
	for i, due := range dues {
		status := "unpaid"
		if i%3 == 0 {
			status = "paid"
		}
		f.app.Post(f.charges(), f.user.Token, map[string]any{
			"name": "Charge", "amount": 10, "due_date": due, "status": status,
		}).Expect(http.StatusCreated)
	}
	for _, filter := range []string{"", "?status=unpaid", "?period=2026-11"} {
		var all chargeList
		sep := "?"
		if filter != "" {
			sep = "&"
		}
		f.app.Get(f.charges()+filter+sep+"per_page=200", f.user.Token).Expect(http.StatusOK).JSON(&all)
		var want []string
		for _, c := range all.Charges {
			want = append(want, c.ID)
		}
		if len(want) < 3 {
			t.Fatalf("%q: only %d charges", filter, len(want))
		}
		for _, per := range []int{1, 2, 3} {
			if got := f.app.Walk(f.charges()+filter, f.user.Token, "charges", per); !slices.Equal(got, want) {
				t.Fatalf("%q by %d: %v\nwant %v", filter, per, got, want)
			}
		}
	}
	// A cursor of another list (properties: by id) is refused here.
	var props struct {
		Next *string `json:"next"`
	}
	f.newProperty2(t)
	f.app.Get("/api/v1/properties?per_page=1", f.user.Token).Expect(http.StatusOK).JSON(&props)
	if props.Next == nil {
		t.Fatal("no properties cursor")
	}
	f.app.Get(f.charges()+"?after="+*props.Next, f.user.Token).Expect(http.StatusBadRequest)
}

func (f fixture) newProperty2(t *testing.T) {
	newProperty(t, f.app, f.user.Token)
}
