package payments_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

// A random sequence of charges, payments (oldest first and explicit),
// reversals and catch-ups keeps the money rules after every step. The seed
// is in the test name, so a failure can be replayed.
func TestRandomSequencesKeepTheMoneyRules(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			f := start(t)
			rng := rand.New(rand.NewPCG(seed, 7))
			f.app.Post(f.url("/expenses"), f.user.Token, map[string]any{"name": "Rent", "type": "MONTHLY",
				"amount": 400 + rng.IntN(200), "start_date": "2026-01-01"}).Expect(http.StatusCreated)
			var charges, payments []string
			listCharges := func() {
				var l chargeList
				f.app.Get(f.url("/charges?per_page=200"), f.user.Token).Expect(http.StatusOK).JSON(&l)
				charges = charges[:0]
				for _, c := range l.Charges {
					charges = append(charges, c.ID)
				}
			}
			for step := range 40 {
				var what string
				switch op := rng.IntN(10); {
				case op < 2:
					what = "manual charge"
					f.manual(t, "Extra", json.Number(fmt.Sprintf("%d.%02d", 1+rng.IntN(300), rng.IntN(100))), fmt.Sprintf("2026-%02d-%02d", 1+rng.IntN(12), 1+rng.IntN(28)))
				case op < 3:
					what = "catch-up"
					f.app.Post(f.url(fmt.Sprintf("/expenses/refresh-all?since=2026-%02d", 1+rng.IntN(11))), f.user.Token, nil).Expect(http.StatusOK)
				case op < 6:
					what = "payment oldest first"
					p := f.pay(t, map[string]any{"amount": json.Number(fmt.Sprintf("%d.%02d", 1+rng.IntN(900), rng.IntN(100))), "method": "cash"})
					payments = append(payments, p.ID)
				case op < 8 && len(charges) > 0:
					what = "explicit payment"
					id := charges[rng.IntN(len(charges))]
					c := f.charge(t, id)
					res := f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.url("/payments"), Token: f.user.Token,
						Body: map[string]any{"amount": 50, "method": "card", "allocations": []any{map[string]any{"charge_id": id, "amount": 0.5}}}})
					switch {
					case res.Status == http.StatusCreated:
						var p payment
						res.JSON(&p)
						payments = append(payments, p.ID)
					case res.Status == http.StatusConflict && (c.Outstanding == "0.00" || c.Status == "cancelled"):
					default:
						t.Fatalf("step %d: explicit payment on %+v: %d %s", step, c, res.Status, res.String())
					}
				case len(payments) > 0:
					what = "reversal"
					i := rng.IntN(len(payments))
					res := f.app.Post(f.url("/payments/"+payments[i]+"/reverse"), f.user.Token, map[string]any{"reason": "random"})
					if res.Status != http.StatusOK && res.Status != http.StatusConflict {
						t.Fatalf("step %d: reversal %d %s", step, res.Status, res.String())
					}
				default:
					what = "nothing"
				}
				listCharges()
				paymentstest.CheckInvariants(t, f.app)
				if t.Failed() {
					t.Fatalf("the money rules broke at step %d (%s)", step, what)
				}
			}
		})
	}
}
