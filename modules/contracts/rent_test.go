package contracts_test

import (
	"net/http"
	"testing"
	"time"
)

type rentList struct {
	Rents []struct {
		From      string `json:"from"`
		Amount    any    `json:"amount"`
		ExpenseID string `json:"expense_id"`
	} `json:"rents"`
}

// Indexation: the old rent expense ends the day before, a new one bills
// from the month on; billed months stay as they were.
func TestRentIndexation(t *testing.T) {
	f := start(t, longTokens)
	c := f.create(t, "I-1", rentTerms("2026-10-01")...)
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	f.refresh(t) // 2026-11 billed at 950
	rent := base + "/" + c.ID + "/rent"
	for _, body := range []map[string]any{{}, {"amount": 0, "from": "2027-01-01"}, {"amount": 1000, "from": "2027-01-15"},
		{"amount": 1000, "from": "2026-10-01"}, {"amount": "1000", "from": "2027-01-01"}} {
		f.app.Post(rent, f.user.Token, body).Expect(http.StatusBadRequest)
	}
	if res := f.app.Post(rent, f.user.Token, map[string]any{"amount": 1000, "from": "2026-11-01"}).Expect(http.StatusConflict); res.Map()["error"] != "already_billed" {
		t.Fatal(res.String())
	}
	// Until December the rent in force is the old one; the new one is
	// next_rent.
	var got contract
	f.app.Post(rent, f.user.Token, map[string]any{"amount": 1000.5, "from": "2026-12-01"}).Expect(http.StatusOK).JSON(&got)
	if got.Rent != 950.0 || got.NextRent == nil || got.NextRent.Amount != 1000.5 || got.NextRent.From != "2026-12-01" {
		t.Fatalf("rent %v, next %+v", got.Rent, got.NextRent)
	}
	var h rentList
	f.app.Get(base+"/"+c.ID+"/rents", f.user.Token).Expect(http.StatusOK).JSON(&h)
	if len(h.Rents) != 2 || h.Rents[0].From != "2026-10-01" || h.Rents[0].Amount != 950.0 || h.Rents[1].From != "2026-12-01" || h.Rents[1].Amount != 1000.5 {
		t.Fatalf("history %+v", h)
	}
	var el expenseList
	f.app.Get("/api/v1/properties/"+f.property+"/expenses", f.user.Token).Expect(http.StatusOK).JSON(&el)
	if el.Total != 2 || *el.Expenses[0].EndDate != "2026-11-30" || el.Expenses[1].StartDate != "2026-12-01" {
		t.Fatalf("expenses %+v", el)
	}
	if r := f.refresh(t); r != (refreshResult{Skipped: 2}) {
		t.Fatalf("november again %+v", r)
	}
	f.app.Clock.Advance(15 * 24 * time.Hour) // 2026-12-07
	if r := f.refresh(t); r != (refreshResult{Created: 1, Skipped: 1}) {
		t.Fatalf("december %+v", r)
	}
	f.app.Get(base+"/"+c.ID, f.user.Token).Expect(http.StatusOK).JSON(&got)
	if got.Rent != 1000.5 || got.NextRent != nil {
		t.Fatalf("in December: rent %v, next %+v", got.Rent, got.NextRent)
	}
	l := f.charges(t, "?contract_id="+c.ID)
	if l.Total != 2 || l.Charges[0].Amount != 950.0 || l.Charges[1].Amount != 1000.5 || l.Charges[1].Period != "2026-12" {
		t.Fatalf("charges %+v", l)
	}
	d := f.create(t, "I-2")
	f.app.Post(base+"/"+d.ID+"/rent", f.user.Token, map[string]any{"amount": 1, "from": "2027-01-01"}).Expect(http.StatusConflict)
}
