package penalties_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// 20 refreshes at once create each penalty exactly once: the created
// counts add up to the overdue charges, every answer accounts for all of
// them, and the table holds one penalty per charge.
func TestConcurrentRefreshesCreateEachPenaltyOnce(t *testing.T) {
	f := start(t)
	contract := f.activeContract(t, "A-1", 1000, "2026-09-01", 5)
	f.catchUp(t)
	const n = 20
	results := make([]result, n)
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.path("/penalties/refresh"), Token: f.user.Token})
			statuses[i] = res.Status
			if res.Status == http.StatusOK {
				res.JSON(&results[i])
			}
		}()
	}
	wg.Wait()
	created := 0
	for i, r := range results {
		if statuses[i] != http.StatusOK || r.Created+r.Skipped != 3 || r.Errors != 0 {
			t.Fatalf("refresh %d: %d %+v, want 200 with 3 charges created or skipped", i, statuses[i], r)
		}
		created += r.Created
	}
	if created != 3 {
		t.Fatalf("%d penalties created in all, want 3", created)
	}
	var rows []struct {
		PenaltyFor string `bun:"penalty_for"`
		Amount     int64  `bun:"amount_minor"`
	}
	if err := f.app.DB.NewRaw("SELECT penalty_for, amount_minor FROM charges WHERE kind = 'penalty'").Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.PenaltyFor] || r.Amount != 5000 {
			t.Fatalf("penalty rows %+v", rows)
		}
		seen[r.PenaltyFor] = true
	}
	if len(rows) != 3 {
		t.Fatalf("%d penalty rows, want 3", len(rows))
	}
	checkPenalties(t, f, []want{
		{f.chargeOf(t, contract, "2026-09"), "50.00"}, {f.chargeOf(t, contract, "2026-10"), "50.00"}, {f.chargeOf(t, contract, "2026-11"), "50.00"},
	})
}
