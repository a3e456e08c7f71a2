package contracts_test

import (
	"net/http"
	"strings"
	"testing"
)

type settings struct {
	ID              string `json:"id"`
	Status          string `json:"status"`
	Number          string `json:"number"`
	AllocationOrder string `json:"allocation_order"`
	LateFeeBase     string `json:"late_fee_base"`
}

// The money settings: defaults, any case on input, a 400 line per bad
// value with nothing written, and on an active contract a PUT of only the
// settings changes them while any other field still answers not_draft.
func TestMoneySettings(t *testing.T) {
	f := start(t)
	var c settings
	f.app.Post(base, f.user.Token, f.body("S-1", rentTerms("2026-11-01")...)).Expect(http.StatusCreated).JSON(&c)
	if c.AllocationOrder != "oldest_first" || c.LateFeeBase != "periodic" {
		t.Fatalf("defaults %+v", c)
	}

	body := f.body("S-2")
	body["allocation_order"], body["late_fee_base"] = "newest_first", "deposit"
	res := f.app.Post(base, f.user.Token, body).Expect(http.StatusBadRequest)
	for _, line := range []string{
		"allocation_order: must be one of oldest_first, rent_first, deposit_last",
		"late_fee_base: must be one of periodic, all",
	} {
		if !strings.Contains(res.String(), line) {
			t.Errorf("400 lacks %q: %s", line, res.String())
		}
	}
	var list contractList
	f.app.Get(base, f.user.Token).Expect(http.StatusOK).JSON(&list)
	if len(list.Contracts) != 1 {
		t.Errorf("%d contracts after a refused create", len(list.Contracts))
	}

	body = f.body("S-3")
	body["allocation_order"], body["late_fee_base"] = " Rent_First ", "ALL"
	var d settings
	f.app.Post(base, f.user.Token, body).Expect(http.StatusCreated).JSON(&d)
	if d.AllocationOrder != "rent_first" || d.LateFeeBase != "all" {
		t.Errorf("created %+v", d)
	}

	f.app.Post(base+"/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	var got settings
	f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"allocation_order": "deposit_last", "late_fee_base": "all"}).
		Expect(http.StatusOK).JSON(&got)
	if got.Status != "active" || got.AllocationOrder != "deposit_last" || got.LateFeeBase != "all" {
		t.Errorf("settings of an active contract %+v", got)
	}
	f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"allocation_order": "rent_first", "number": "S-9"}).Expect(http.StatusConflict)
	f.app.Put(base+"/"+c.ID, f.user.Token, map[string]any{"late_fee_base": "some"}).Expect(http.StatusBadRequest)
	f.app.Get(base+"/"+c.ID, f.user.Token).Expect(http.StatusOK).JSON(&got)
	if got.Number != "S-1" || got.AllocationOrder != "deposit_last" || got.LateFeeBase != "all" {
		t.Errorf("after refused PUTs %+v", got)
	}
}
