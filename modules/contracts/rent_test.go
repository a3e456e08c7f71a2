package contracts_test

import (
	"net/http"
	"strings"
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
	vpi := map[string]any{"old_period": "2025-10", "old_value": "110.0", "new_period": "2026-10", "new_value": "120.0"}
	for _, body := range []map[string]any{{}, {"amount": 0, "from": "2027-01-01", "index": vpi}, {"amount": 1000, "from": "2027-01-15", "index": vpi},
		{"amount": 1000, "from": "2026-10-01", "index": vpi}, {"amount": "1000", "from": "2027-01-01", "index": vpi}} {
		f.app.Post(rent, f.user.Token, body).Expect(http.StatusBadRequest)
	}
	if res := f.app.Post(rent, f.user.Token, map[string]any{"amount": 1000, "from": "2026-11-01", "index": vpi}).Expect(http.StatusConflict); res.Map()["error"] != "already_billed" {
		t.Fatal(res.String())
	}
	// Until December the rent in force is the old one; the new one is
	// next_rent.
	var got contract
	f.app.Post(rent, f.user.Token, map[string]any{"amount": 1000.5, "from": "2026-12-01", "index": vpi}).Expect(http.StatusOK).JSON(&got)
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
	f.app.Post(base+"/"+d.ID+"/rent", f.user.Token, map[string]any{"amount": 1, "from": "2027-01-01", "index": vpi}).Expect(http.StatusConflict)
}

// A rent change follows the law of the property's country (platform/law):
// in Germany (§ 557b BGB) and France (the IRL) it must state the index,
// its old and new values and their periods, or it is a 400; a new rent
// above what the index's change allows is a 422 rent_exceeds_index;
// nothing changes either way. The history keeps the index and its change
// in percent; elsewhere an index is optional.
func TestRentChangeStatesTheIndex(t *testing.T) {
	f := start(t, longTokens)
	c := f.create(t, "X-1", rentTerms("2026-10-01")...)
	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	rent := base + "/" + c.ID + "/rent"
	for _, bad := range []map[string]any{
		{"amount": 990, "from": "2027-01-01"},
		{"amount": 990, "from": "2027-01-01", "index": map[string]any{"old_period": "2025-13", "old_value": "110", "new_period": "2026-10", "new_value": "120"}},
		{"amount": 990, "from": "2027-01-01", "index": map[string]any{"old_period": "2025-10", "old_value": "0", "new_period": "2026-10", "new_value": "120"}},
		{"amount": 990, "from": "2027-01-01", "index": map[string]any{"old_period": "2026-10", "old_value": "110", "new_period": "2025-10", "new_value": "120"}},
		{"amount": 990, "from": "2027-01-01", "index": map[string]any{"old_period": "2025-Q4", "old_value": "110", "new_period": "2026-Q4", "new_value": "120"}},
	} {
		res := f.app.Post(rent, f.user.Token, bad)
		if res.Status != http.StatusBadRequest || !strings.Contains(res.String(), "index") {
			t.Errorf("%v: %d %s", bad, res.Status, res.Body)
		}
	}
	// 950 x 120.0 / 110.0 = 1,036.36...: 1,036.37 at most.
	res := f.app.Post(rent, f.user.Token, map[string]any{"amount": 1036.38, "from": "2027-01-01",
		"index": map[string]any{"old_period": "2025-10", "old_value": "110.0", "new_period": "2026-10", "new_value": "120.0"}})
	if res.Status != http.StatusUnprocessableEntity || res.Map()["error"] != "rent_exceeds_index" || !strings.Contains(res.String(), "1036.37") {
		t.Fatalf("above the index: %d %s", res.Status, res.Body)
	}
	var h rentList
	f.app.Get(base+"/"+c.ID+"/rents", f.user.Token).Expect(http.StatusOK).JSON(&h)
	if len(h.Rents) != 1 {
		t.Fatalf("a refused change was recorded: %+v", h)
	}
	f.app.Post(rent, f.user.Token, map[string]any{"amount": 1036.37, "from": "2027-01-01",
		"index": map[string]any{"old_period": "2025-10", "old_value": "110.0", "new_period": "2026-10", "new_value": "120.0"}}).Expect(http.StatusOK)
	var raw struct {
		Rents []struct {
			Index *struct {
				Name          string `json:"name"`
				OldValue      string `json:"old_value"`
				NewPeriod     string `json:"new_period"`
				ChangePercent string `json:"change_percent"`
			} `json:"index"`
		} `json:"rents"`
	}
	f.app.Get(base+"/"+c.ID+"/rents", f.user.Token).Expect(http.StatusOK).JSON(&raw)
	if len(raw.Rents) != 2 || raw.Rents[0].Index != nil || raw.Rents[1].Index == nil ||
		raw.Rents[1].Index.ChangePercent != "9.09" || raw.Rents[1].Index.OldValue != "110.0" || !strings.Contains(raw.Rents[1].Index.Name, "Verbraucherpreisindex") {
		t.Fatalf("history %+v", raw.Rents)
	}
	// France: the IRL of a quarter.
	fr := newProperty(t, f.app, f.user.Token, "FR")
	var frc contract
	f.app.Post(base, f.user.Token, map[string]any{"property_id": fr, "tenant_id": f.tenant, "number": "FR-1",
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 800}, {"code": "CONTRACT_START_DATE", "value": "2026-10-01"}}}).
		Expect(http.StatusCreated).JSON(&frc)
	f.app.Post(base+"/"+frc.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	f.app.Post(base+"/"+frc.ID+"/rent", f.user.Token, map[string]any{"amount": 810, "from": "2027-01-01",
		"index": map[string]any{"old_period": "2025-10", "old_value": "145.17", "new_period": "2026-10", "new_value": "147.00"}}).Expect(http.StatusBadRequest)
	f.app.Post(base+"/"+frc.ID+"/rent", f.user.Token, map[string]any{"amount": 810, "from": "2027-01-01",
		"index": map[string]any{"old_period": "2025-Q2", "old_value": "145.17", "new_period": "2026-Q2", "new_value": "147.00"}}).Expect(http.StatusOK)
	// The Netherlands: no index required.
	nl := newProperty(t, f.app, f.user.Token, "NL")
	var nlc contract
	f.app.Post(base, f.user.Token, map[string]any{"property_id": nl, "tenant_id": f.tenant, "number": "NL-1",
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 800}, {"code": "CONTRACT_START_DATE", "value": "2026-10-01"}}}).
		Expect(http.StatusCreated).JSON(&nlc)
	f.app.Post(base+"/"+nlc.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	f.app.Post(base+"/"+nlc.ID+"/rent", f.user.Token, map[string]any{"amount": 850, "from": "2027-01-01"}).Expect(http.StatusOK)
}
