package payments_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

// Under load: 8 keep-alive clients of a listening server mix payments
// (oldest first and explicit), reversals, manual charges, catch-ups and
// late-fee refreshes on two properties for about two seconds; then the
// money rules hold and no request failed with a 5xx.
func TestMoneyRulesUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load")
	}
	app := testkit.Start(t, testkit.WithListener())
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	props := []string{newProperty(t, app, u.Token), newProperty(t, app, u.Token)}
	for _, p := range props {
		app.Post("/api/v1/properties/"+p+"/expenses", u.Token, map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 500, "start_date": "2025-01-01"}).
			Expect(http.StatusCreated)
	}
	deadline := time.Now().Add(2 * time.Second)
	var mu sync.Mutex
	payments := map[string][]string{}
	counts := map[string]int{}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := testkit.KeepAliveClient(t)
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			for time.Now().Before(deadline) {
				prop := props[rng.IntN(2)]
				base := "/api/v1/properties/" + prop
				req := testkit.Request{Method: http.MethodPost, Token: u.Token, Client: client}
				op := rng.IntN(10)
				switch {
				case op < 4:
					req.Path, req.Body = base+"/payments", map[string]any{"amount": json.Number(fmt.Sprintf("%d.%02d", 1+rng.IntN(700), rng.IntN(100))), "method": "cash"}
				case op < 6:
					req.Path, req.Body = base+"/charges", map[string]any{"name": "Extra", "amount": 1 + rng.IntN(90), "due_date": fmt.Sprintf("2026-%02d-10", 1+rng.IntN(11))}
				case op < 7:
					req.Path = base + fmt.Sprintf("/expenses/refresh-all?since=2025-%02d", 1+rng.IntN(12))
				case op < 8:
					req.Path = base + "/penalties/refresh"
				default:
					mu.Lock()
					list := payments[prop]
					mu.Unlock()
					if len(list) == 0 {
						continue
					}
					req.Path, req.Body = base+"/payments/"+list[rng.IntN(len(list))]+"/reverse", map[string]any{"reason": "load"}
				}
				res := app.Do(req)
				mu.Lock()
				counts[fmt.Sprint(res.Status)]++
				if res.Status == http.StatusCreated && op < 4 {
					var p payment
					res.JSON(&p)
					payments[prop] = append(payments[prop], p.ID)
				}
				mu.Unlock()
				if res.Status >= 500 {
					t.Errorf("%s %s: %d %s", req.Method, req.Path, res.Status, res.String())
					return
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("answers by status: %v", counts)
	if counts["201"] < 20 {
		t.Fatalf("too little load: %v", counts)
	}
}
