package expenses_test

import (
	"net/http"
	"sort"
	"sync"
	"testing"
)

// refresh-all?since= bills every missed period from since (not before the
// expense's start, not after its end) once; the counts say what it did.
func TestCatchUpOfMissedPeriods(t *testing.T) {
	f := start(t)
	monthly := f.newExpense(t, map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 500, "start_date": "2026-03-10", "due_day": 3})
	f.newExpense(t, map[string]any{"name": "Tax", "type": "QUARTERLY", "amount": 90, "start_date": "2026-01-01", "end_date": "2026-08-31"})
	f.newExpense(t, map[string]any{"name": "Later", "type": "MONTHLY", "amount": 5, "start_date": "2027-01-01"})

	// Without since: this month only (the quarterly ended, the later one
	// has not started).
	if got := f.refreshAll(t); got != (refreshResult{Created: 1, Skipped: 2}) {
		t.Fatalf("plain refresh %+v", got)
	}
	var r refreshResult
	f.app.Post(f.refresh()+"?since=2026-01", f.user.Token, nil).Expect(http.StatusOK).JSON(&r)
	// Rent: March..November = 9 periods, November exists. Tax: Q1..Q3 = 3.
	if r != (refreshResult{Created: 8 + 3, Skipped: 1 + 1}) {
		t.Fatalf("catch-up %+v", r)
	}
	l := f.allCharges(t, "")
	var rent []string
	for _, c := range l.Charges {
		if c.ExpenseID != nil && *c.ExpenseID == monthly.ID {
			rent = append(rent, c.Period+" "+c.DueDate)
		}
	}
	sort.Strings(rent)
	if len(rent) != 9 || rent[0] != "2026-03 2026-03-03" || rent[8] != "2026-11 2026-11-03" {
		t.Fatalf("rent periods %v", rent)
	}
	// Again: nothing new.
	f.app.Post(f.refresh()+"?since=2026-01", f.user.Token, nil).Expect(http.StatusOK).JSON(&r)
	if r != (refreshResult{Skipped: 9 + 3 + 1}) {
		t.Fatalf("second catch-up %+v", r)
	}
	for _, bad := range []string{"2026-13", "2026-1", "x", "2026-12", "2021-10", "2026-11-01"} {
		f.app.Post(f.refresh()+"?since="+bad, f.user.Token, nil).Expect(http.StatusBadRequest)
	}
	// 60 months back is the limit.
	f.app.Post(f.refresh()+"?since=2021-12", f.user.Token, nil).Expect(http.StatusOK)
}

// Concurrent catch-ups create each period once.
func TestConcurrentCatchUpCreatesEachPeriodOnce(t *testing.T) {
	f := start(t)
	for i := range 5 {
		f.newExpense(t, map[string]any{"name": "E", "type": "MONTHLY", "amount": 10 + i, "start_date": "2025-01-01"})
	}
	var wg sync.WaitGroup
	created := make([]int, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var r refreshResult
			res := f.app.Post(f.refresh()+"?since=2025-01", f.user.Token, nil)
			if res.Status != http.StatusOK {
				t.Errorf("refresh %d: %s", res.Status, res.String())
				return
			}
			res.JSON(&r)
			created[i] = r.Created
		}()
	}
	wg.Wait()
	total := 0
	for _, n := range created {
		total += n
	}
	// 2025-01..2026-11 = 23 months x 5 expenses.
	if total != 115 || rows(t, f.app, "charges") != 115 {
		t.Fatalf("created %v (sum %d), %d rows; want 115", created, total, rows(t, f.app, "charges"))
	}
}
