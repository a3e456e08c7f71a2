package ledger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

// checkBooks checks, through the API, what the ledger says against what
// the money routes say: each contract's receivable (its 1200 lines in the
// journal) is its outstanding balance, and the trial balance's totals sum
// to zero; then the database-wide invariants (paymentstest).
func checkBooks(t *testing.T, app *testkit.App, token string, f tenancy, contracts []string, step string) {
	t.Helper()
	for _, c := range contracts {
		var b struct {
			Outstanding json.Number `json:"outstanding"`
		}
		app.Get(f.path("/balance?contract_id="+c), token).Expect(http.StatusOK).JSON(&b)
		var receivable int64
		for _, e := range journal(t, app, token, "&contract_id="+c) {
			for _, l := range e.Lines {
				if l.AccountCode == "1200" && l.ContractID != nil && *l.ContractID == c {
					receivable += cents(t, l.Debit) - cents(t, l.Credit)
				}
			}
		}
		if want := cents(t, b.Outstanding); receivable != want {
			t.Fatalf("%s: contract %s receivable %d, outstanding %d", step, c, receivable, want)
		}
	}
	var tb struct {
		Totals []balance `json:"totals"`
	}
	app.Get("/api/v1/reports/trial-balance", token).Expect(http.StatusOK).JSON(&tb)
	for _, tot := range tb.Totals {
		if tot.Balance.String() != "0.00" || tot.Debit.String() != tot.Credit.String() {
			t.Fatalf("%s: trial balance totals %+v", step, tot)
		}
	}
	paymentstest.CheckInvariants(t, app)
	if t.Failed() {
		t.FailNow()
	}
}

// Random sequences of money operations on a property with two Spanish
// contracts (late fees allowed): after every step the books agree with
// the money routes.
func TestRandomMoneyKeepsTheBooks(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			app, token := start(t)
			terms := func(start, end string) []map[string]any {
				out := []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 700}, {"code": "CONTRACT_START_DATE", "value": start},
					{"code": "LATE_FEE_PERCENTAGE", "value": 5}, {"code": "DEPOSIT_AMOUNT", "value": 1400}}
				if end != "" {
					out = append(out, map[string]any{"code": "CONTRACT_END_DATE", "value": end})
				}
				return out
			}
			// One tenant until August, the next from September.
			f := lease(t, app, token, "ES", "es", "ES-1", terms("2026-06-01", "2026-08-31")...)
			contracts := []string{f.contract, f.newContract(t, "ES", "es", "ES-2", terms("2026-09-01", "")...)}
			rnd := rand.New(rand.NewPCG(seed, 44))
			var posted, pending, credited []string
			amount := func(max int) float64 { return float64(1+rnd.IntN(max*100)) / 100 }
			for step := 0; step < 30; step++ {
				op := rnd.IntN(8)
				c := contracts[rnd.IntN(2)]
				name := fmt.Sprintf("step %d op %d", step, op)
				switch op {
				case 0:
					app.Post(f.path("/charges"), token, map[string]any{"name": "Reparatur", "amount": amount(300),
						"due_date": time.Date(2026, 10, 1+rnd.IntN(50), 0, 0, 0, 0, time.UTC).Format(time.DateOnly)}).Expect(http.StatusCreated)
				case 1, 2:
					body := map[string]any{"amount": amount(4000), "paid_on": "2026-11-0" + fmt.Sprint(1+rnd.IntN(9)),
						"method": []string{"bank_transfer", "cash", "card"}[rnd.IntN(3)]}
					if rnd.IntN(4) > 0 {
						body["contract_id"] = c
					}
					posted = append(posted, id(t, app.Post(f.path("/payments"), token, body).Expect(http.StatusCreated)))
				case 3:
					if len(posted) > 0 {
						i := rnd.IntN(len(posted))
						app.Post(f.path("/payments/"+posted[i]+"/reverse"), token, map[string]any{"reason": "bounced"}).Expect(http.StatusOK)
						posted = append(posted[:i], posted[i+1:]...)
					}
				case 4:
					app.Post(f.path("/expenses/refresh-all?since=2026-06"), token, nil).Expect(http.StatusOK)
					app.Post(f.path("/penalties/refresh"), token, nil).Expect(http.StatusOK)
				case 5:
					pending = append(pending, id(t, app.Post(f.path("/compensations"), token, map[string]any{"contract_id": c,
						"kind": "repair_by_tenant", "amount": amount(200)}).Expect(http.StatusCreated)))
				case 6:
					if len(pending) > 0 {
						cp := pending[0]
						pending = pending[1:]
						switch rnd.IntN(3) {
						case 0:
							app.Post(f.path("/compensations/"+cp+"/credit"), token, nil).Expect(http.StatusOK)
							credited = append(credited, cp)
						case 1:
							app.Post(f.path("/compensations/"+cp+"/pay-out"), token, map[string]any{"method": "cash", "reference": "bar"}).
								Expect(http.StatusOK)
							credited = append(credited, cp)
						default:
							app.Post(f.path("/compensations/"+cp+"/cancel"), token, map[string]any{"reason": "agreed"}).Expect(http.StatusOK)
						}
					}
				case 7:
					if len(credited) > 0 {
						cp := credited[0]
						credited = credited[1:]
						app.Post(f.path("/compensations/"+cp+"/reverse"), token, map[string]any{"reason": "mistake"}).Expect(http.StatusOK)
					}
				}
				checkBooks(t, app, token, f, contracts, name)
			}
		})
	}
}

// Payments sent at once on one contract, more than the pool's
// connections: every one is booked once and the books still agree.
func TestParallelPaymentsKeepTheBooks(t *testing.T) {
	app, token := start(t, testkit.WithListener(), testkit.WithConfig("database.maxopen", 4), testkit.WithConfig("database.maxidle", 4))
	f := lease(t, app, token, "DE", "de", "DE-P", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 1000},
		map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-01-01"}, map[string]any{"code": "DEPOSIT_AMOUNT", "value": 2000})
	app.Post(f.path("/expenses/refresh-all?since=2026-01"), token, nil).Expect(http.StatusOK)
	const n = 16
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := app.Do(testkit.Request{Method: http.MethodPost, Path: f.path("/payments"), Token: token, Client: testkit.KeepAliveClient(t),
				Body: map[string]any{"amount": 333.33 + float64(i), "paid_on": "2026-11-02", "method": "bank_transfer", "contract_id": f.contract}})
			if res.Status != http.StatusCreated {
				t.Errorf("payment %d: %d %s", i, res.Status, res.Body)
			}
		}(i)
	}
	wg.Wait()
	checkBooks(t, app, token, f, []string{f.contract}, "after the burst")
	var bank int64
	for _, e := range journal(t, app, token, "") {
		for _, l := range e.Lines {
			if l.AccountCode == "1800" {
				bank += cents(t, l.Debit) - cents(t, l.Credit)
			}
		}
	}
	if want := int64(n*33333 + 100*n*(n-1)/2); bank != want {
		t.Errorf("bank %d, want %d", bank, want)
	}
}

// A workspace's first readers, at once, find one chart: every account
// once, the same ids for all.
func TestTheChartIsMadeOnceUnderConcurrency(t *testing.T) {
	app, token := start(t, testkit.WithListener(), testkit.WithConfig("database.maxopen", 4), testkit.WithConfig("database.maxidle", 4))
	const n = 12
	ids := make([]map[string]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/ledger/accounts", Token: token, Client: testkit.KeepAliveClient(t)})
			var out struct {
				Accounts []account `json:"accounts"`
			}
			if res.Status != http.StatusOK {
				t.Errorf("reader %d: %d %s", i, res.Status, res.Body)
				return
			}
			res.JSON(&out)
			ids[i] = map[string]string{}
			for _, a := range out.Accounts {
				ids[i][a.Code] = a.ID
			}
		}(i)
	}
	wg.Wait()
	for i := range n {
		if len(ids[i]) != 19 {
			t.Fatalf("reader %d saw %d accounts", i, len(ids[i]))
		}
		for code, id := range ids[i] {
			if ids[0][code] != id {
				t.Errorf("account %s: reader %d saw id %s, reader 0 %s", code, i, id, ids[0][code])
			}
		}
	}
	var count int
	if err := app.DB.NewRaw("SELECT COUNT(*) FROM ledger_accounts").Scan(context.Background(), &count); err != nil || count != 19 {
		t.Errorf("%d accounts stored (%v)", count, err)
	}
}
