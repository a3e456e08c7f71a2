package expenses_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

// The clock stands at 2026-11-22T10:00Z: month 2026-11, quarter 2026-Q4,
// year 2026.
func TestRefreshAllCountsOverAMixOfExpenses(t *testing.T) {
	f := start(t)
	mk := func(name, typ, from string, extra map[string]any) expense {
		b := map[string]any{"name": name, "type": typ, "amount": 10.5, "start_date": from}
		for k, v := range extra {
			b[k] = v
		}
		return f.newExpense(t, b)
	}
	monthly := mk("Monthly", "MONTHLY", "2026-01-01", map[string]any{"due_day": 5})
	quarterly := mk("Quarterly", "QUARTERLY", "2026-01-01", map[string]any{"due_day": 15, "amount": 300, "currency": "USD"})
	yearly := mk("Yearly", "YEARLY", "2020-06-01", nil)
	lateInQuarter := mk("Starts inside the quarter", "QUARTERLY", "2026-12-15", nil)
	endedInYear := mk("Ended this year", "YEARLY", "2025-01-01", map[string]any{"end_date": "2026-03-01"})
	mk("Manual", "MANUAL", "2026-01-01", nil)
	mk("Inactive", "MONTHLY", "2026-01-01", map[string]any{"is_active": false})
	mk("Not yet started", "MONTHLY", "2026-12-01", nil)
	mk("Ended", "MONTHLY", "2026-01-01", map[string]any{"end_date": "2026-10-31"})
	deleted := mk("Deleted", "MONTHLY", "2026-01-01", nil)
	f.app.Delete(f.expenses()+"/"+deleted.ID, f.user.Token).Expect(http.StatusNoContent)

	// 7 active automatic expenses: 5 reach into their current period, 2 do not.
	if got, want := f.refreshAll(t), (refreshResult{Created: 5, Skipped: 2}); got != want {
		t.Fatalf("first refresh %+v, want %+v", got, want)
	}
	l := f.allCharges(t, "")
	want := map[string]charge{
		monthly.ID:       {Name: "Monthly", Amount: 10.5, Currency: "EUR", Period: "2026-11", DueDate: "2026-11-05"},
		quarterly.ID:     {Name: "Quarterly", Amount: 300.0, Currency: "USD", Period: "2026-Q4", DueDate: "2026-10-15"},
		yearly.ID:        {Name: "Yearly", Amount: 10.5, Currency: "EUR", Period: "2026", DueDate: "2026-01-01"},
		lateInQuarter.ID: {Name: "Starts inside the quarter", Amount: 10.5, Currency: "EUR", Period: "2026-Q4", DueDate: "2026-10-01"},
		endedInYear.ID:   {Name: "Ended this year", Amount: 10.5, Currency: "EUR", Period: "2026", DueDate: "2026-01-01"},
	}
	if l.Total != len(want) || len(l.Charges) != len(want) {
		t.Fatalf("%d charges (total %d), want %d: %+v", len(l.Charges), l.Total, len(want), l.Charges)
	}
	for _, c := range l.Charges {
		if c.ExpenseID == nil {
			t.Fatalf("generated charge without expense_id: %+v", c)
		}
		w, ok := want[*c.ExpenseID]
		if !ok {
			t.Fatalf("charge for an unexpected expense: %+v", c)
		}
		w.ID, w.PropertyID, w.ExpenseID, w.Status, w.CreatedAt = c.ID, f.property, c.ExpenseID, "unpaid", "2026-11-22T10:00:00Z"
		if c != w {
			t.Errorf("charge %+v\nwant   %+v", c, w)
		}
	}
	// Ordered by due date.
	for i := 1; i < len(l.Charges); i++ {
		if l.Charges[i].DueDate < l.Charges[i-1].DueDate {
			t.Fatalf("charges not ordered by due date: %+v", l.Charges)
		}
	}

	if got, want := f.refreshAll(t), (refreshResult{Skipped: 7}); got != want {
		t.Fatalf("second refresh %+v, want %+v", got, want)
	}
	if n := rows(t, f.app, "charges"); n != 5 {
		t.Fatalf("%d charges after the second refresh, want 5", n)
	}
}

func TestRefreshAllAcrossMonthQuarterAndYearEnds(t *testing.T) {
	f := start(t, testkit.WithClock(time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC)))
	m := f.newExpense(t, map[string]any{"name": "M", "type": "MONTHLY", "amount": 1, "start_date": "2026-01-01", "due_day": 28})
	q := f.newExpense(t, map[string]any{"name": "Q", "type": "QUARTERLY", "amount": 2, "start_date": "2026-01-01", "due_day": 10})
	y := f.newExpense(t, map[string]any{"name": "Y", "type": "YEARLY", "amount": 3, "start_date": "2026-01-01", "due_day": 3})
	names := map[string]string{m.ID: "M", q.ID: "Q", y.ID: "Y"}

	steps := []struct {
		at   time.Time
		want refreshResult
		// new charges as "name period due_date"
		created []string
	}{
		{time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC), refreshResult{Created: 3},
			[]string{"M 2026-12 2026-12-28", "Q 2026-Q4 2026-10-10", "Y 2026 2026-01-03"}},
		{time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), refreshResult{Created: 3},
			[]string{"M 2027-01 2027-01-28", "Q 2027-Q1 2027-01-10", "Y 2027 2027-01-03"}},
		{time.Date(2027, 1, 31, 23, 59, 59, 999999999, time.UTC), refreshResult{Skipped: 3}, nil},
		{time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC), refreshResult{Created: 1, Skipped: 2},
			[]string{"M 2027-02 2027-02-28"}},
		{time.Date(2027, 3, 31, 23, 59, 59, 0, time.UTC), refreshResult{Created: 1, Skipped: 2},
			[]string{"M 2027-03 2027-03-28"}},
		{time.Date(2027, 4, 1, 0, 0, 0, 0, time.UTC), refreshResult{Created: 2, Skipped: 1},
			[]string{"M 2027-04 2027-04-28", "Q 2027-Q2 2027-04-10"}},
	}
	seen := map[string]bool{}
	for _, s := range steps {
		f.app.Clock.Set(s.at)
		f.renewToken(t)
		if got := f.refreshAll(t); got != s.want {
			t.Fatalf("at %s: %+v, want %+v", s.at.Format(time.RFC3339), got, s.want)
		}
		var fresh []string
		for _, c := range f.allCharges(t, "").Charges {
			key := fmt.Sprintf("%s %s %s", names[*c.ExpenseID], c.Period, c.DueDate)
			if !seen[key] {
				seen[key] = true
				fresh = append(fresh, key)
			}
		}
		if fmt.Sprint(sorted(fresh)) != fmt.Sprint(s.created) {
			t.Fatalf("at %s new charges %v, want %v", s.at.Format(time.RFC3339), sorted(fresh), s.created)
		}
	}
	// The filters find them by period.
	if l := f.allCharges(t, "&period=2027-Q1"); l.Total != 1 || l.Charges[0].Name != "Q" {
		t.Fatalf("period 2027-Q1: %+v", l)
	}
	if l := f.allCharges(t, "&period=2027"); l.Total != 1 || l.Charges[0].Name != "Y" {
		t.Fatalf("period 2027: %+v", l)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestRefreshAllConcurrentCallsCreateEachChargeOnce(t *testing.T) {
	f := start(t)
	const expenses = 30
	for i := range expenses {
		typ := []string{"MONTHLY", "QUARTERLY", "YEARLY"}[i%3]
		f.newExpense(t, map[string]any{"name": fmt.Sprintf("E%d", i), "type": typ, "amount": 12.34, "start_date": "2026-01-01"})
	}
	const calls = 20
	results := make([]refreshResult, calls)
	statuses := make([]int, calls)
	var wg sync.WaitGroup
	ready := make(chan struct{})
	for i := range calls {
		wg.Go(func() {
			<-ready
			res := f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.refresh(), Token: f.user.Token})
			statuses[i] = res.Status
			if res.Status == http.StatusOK {
				res.JSON(&results[i])
			}
		})
	}
	close(ready)
	wg.Wait()
	created := 0
	for i, r := range results {
		if statuses[i] != http.StatusOK {
			t.Fatalf("call %d answered %d", i, statuses[i])
		}
		if r.Errors != 0 || r.Created+r.Skipped != expenses {
			t.Fatalf("call %d: %+v, want created+skipped = %d and no errors", i, r, expenses)
		}
		created += r.Created
	}
	if created != expenses {
		t.Fatalf("%d calls created %d charges in all, want %d", calls, created, expenses)
	}
	if n := rows(t, f.app, "charges"); n != expenses {
		t.Fatalf("%d charges stored, want %d", n, expenses)
	}
}

// One expense whose charge the database refuses is counted in errors; the
// others are created all the same.
func TestRefreshAllCountsAFailingExpenseAndGoesOn(t *testing.T) {
	f := start(t)
	for _, name := range []string{"A", "Broken", "C"} {
		f.newExpense(t, map[string]any{"name": name, "type": "MONTHLY", "amount": 5, "start_date": "2026-01-01"})
	}
	ctx := context.Background()
	stmts := []string{`CREATE TRIGGER charges_refuse BEFORE INSERT ON charges
		WHEN NEW.name = 'Broken' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`}
	if f.app.Engine == "postgres" {
		stmts = []string{
			`CREATE FUNCTION refuse_broken() RETURNS trigger AS $$ BEGIN
				IF NEW.name = 'Broken' THEN RAISE EXCEPTION 'refused by the test'; END IF;
				RETURN NEW; END $$ LANGUAGE plpgsql`,
			`CREATE TRIGGER charges_refuse BEFORE INSERT ON charges FOR EACH ROW EXECUTE FUNCTION refuse_broken()`,
		}
	}
	for _, s := range stmts {
		if _, err := f.app.DB.ExecContext(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := f.refreshAll(t), (refreshResult{Created: 2, Errors: 1}); got != want {
		t.Fatalf("first refresh %+v, want %+v", got, want)
	}
	if got, want := f.refreshAll(t), (refreshResult{Skipped: 2, Errors: 1}); got != want {
		t.Fatalf("second refresh %+v, want %+v", got, want)
	}
	l := f.allCharges(t, "")
	if l.Total != 2 || l.Charges[0].Name == "Broken" || l.Charges[1].Name == "Broken" {
		t.Fatalf("charges %+v", l)
	}
}

func TestRefreshAllOnAnEmptyOrUnknownProperty(t *testing.T) {
	f := start(t)
	if got := f.refreshAll(t); got != (refreshResult{}) {
		t.Fatalf("empty property: %+v", got)
	}
	res := f.app.Post("/api/v1/properties/019a0000-0000-7000-8000-000000000000/expenses/refresh-all", f.user.Token, nil).Expect(http.StatusNotFound)
	if res.Map()["error"] != "not_found" {
		t.Fatalf("404 body %s", res.String())
	}
	f.app.Post("/api/v1/properties/nope/expenses/refresh-all", f.user.Token, nil).Expect(http.StatusNotFound)
	res = f.app.Post(f.refresh(), "", nil).Expect(http.StatusUnauthorized)
	if res.Map()["code"] != float64(401) {
		t.Fatalf("401 body %s", res.String())
	}
}

// Generated charges are counted in propman_charges_generated_total; charges
// a later call skips are not counted again.
func TestRefreshAllCountsGeneratedChargesInMetrics(t *testing.T) {
	f := start(t)
	for _, typ := range []string{"MONTHLY", "YEARLY"} {
		f.newExpense(t, map[string]any{"name": typ, "type": typ, "amount": 20, "start_date": "2026-01-01"})
	}
	counter := func() string {
		for _, line := range strings.Split(f.app.Get("/metrics", "").Expect(http.StatusOK).String(), "\n") {
			if strings.HasPrefix(line, "propman_charges_generated_total ") {
				return strings.TrimPrefix(line, "propman_charges_generated_total ")
			}
		}
		t.Fatal("no propman_charges_generated_total in /metrics")
		return ""
	}
	if got := counter(); got != "0" {
		t.Fatalf("before: %s", got)
	}
	f.refreshAll(t)
	f.refreshAll(t)
	if got := counter(); got != "2" {
		t.Errorf("after two calls over two expenses: %s, want 2", got)
	}
}
