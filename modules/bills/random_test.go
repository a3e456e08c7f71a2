package bills_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
)

// TestRandomBillsKeepTheBooks records, pays, unpays, changes and deletes
// bills at random; after every step the books must say what the bills
// list says, summed here: each cost account the bills of its category,
// bills payable the unpaid ones, the bank what was paid (and the
// invariants at the end: payables per property equal the unpaid bills).
func TestRandomBillsKeepTheBooks(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			app := start(t)
			l := newLandlord(t, app)
			rnd := rand.New(rand.NewPCG(seed, 44))
			categories := map[string]string{"repairs": "6300", "insurance": "6310", "property_tax": "6320", "operating": "6330",
				"management": "6340", "other": "6390", "loan_interest": "6350"}
			names := []string{"repairs", "insurance", "property_tax", "operating", "management", "other", "loan_interest"}
			amount := func() float64 { return float64(1+rnd.IntN(250000)) / 100 }
			var ids []string
			for step := 0; step < 25; step++ {
				op := rnd.IntN(5)
				if len(ids) == 0 {
					op = 0
				}
				switch op {
				case 0:
					body := map[string]any{"supplier_id": l.supplier, "bill_date": fmt.Sprintf("2026-10-%02d", 1+rnd.IntN(28)),
						"amount": amount(), "category": names[rnd.IntN(len(names))]}
					if rnd.IntN(2) == 0 {
						body["paid_on"] = fmt.Sprintf("2026-11-%02d", 1+rnd.IntN(22))
					}
					ids = append(ids, id(t, app.Post(l.bills(), l.token, body).Expect(http.StatusCreated)))
				case 1:
					app.Put(l.bills()+"/"+ids[rnd.IntN(len(ids))], l.token, map[string]any{"paid_on": fmt.Sprintf("2026-11-%02d", 1+rnd.IntN(22))}).
						Expect(http.StatusOK)
				case 2:
					app.Put(l.bills()+"/"+ids[rnd.IntN(len(ids))], l.token, map[string]any{"paid_on": nil}).Expect(http.StatusOK)
				case 3:
					app.Put(l.bills()+"/"+ids[rnd.IntN(len(ids))], l.token, map[string]any{"amount": amount(),
						"category": names[rnd.IntN(len(names))]}).Expect(http.StatusOK)
				case 4:
					i := rnd.IntN(len(ids))
					app.Delete(l.bills()+"/"+ids[i], l.token).Expect(http.StatusNoContent)
					ids = append(ids[:i], ids[i+1:]...)
				}
				var p page
				app.Get(l.bills()+"?per_page=200", l.token).Expect(http.StatusOK).JSON(&p)
				want := map[string]int64{}
				for _, b := range p.Bills {
					c := cents(t, b.Amount.String())
					want[categories[b.Category]] += c
					if b.Status == "paid" {
						want["1800"] -= c
					} else {
						want["3600"] -= c
					}
				}
				for code, got := range balances(t, app, l.token) {
					if cents(t, got) != want[code] {
						t.Errorf("step %d op %d: account %s is %s, the bills say %d cents", step, op, code, got, want[code])
					}
				}
				if t.Failed() {
					t.FailNow()
				}
			}
		})
	}
}

func cents(t testing.TB, s string) int64 {
	t.Helper()
	var whole, frac int64
	neg := false
	if s != "" && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if _, err := fmt.Sscanf(s, "%d.%d", &whole, &frac); err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	v := whole*100 + frac
	if neg {
		v = -v
	}
	return v
}
