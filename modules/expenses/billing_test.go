package expenses_test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/jobs/jobstest"
	"github.com/propman/propman/platform/testkit"
)

func waitForRuns(t *testing.T, f fixture, ws int64, n int) []jobstest.Run {
	t.Helper()
	return jobstest.WaitForRuns(t, f.app, f.user.Token, ws, n)
}

func workspaceOf(t *testing.T, f fixture) int64 { return jobstest.Workspace(t, f.app, f.user.Token) }

// The billing runs by itself once a day at the workspace's local time: it
// catches every expense up from its start (or its last billed period), and
// never makes a charge twice or again after the landlord removed one.
func TestBillingRunsByItselfAtTheLocalTime(t *testing.T) {
	var q *jobs.Queue
	// The clock moves days ahead: tokens last longer than the test.
	f := start(t, testkit.WithPopulate(&q), testkit.WithConfig("auth.ttl", "2000h"), testkit.WithConfig("auth.maxage", "2000h"))
	ws := workspaceOf(t, f)
	f.newExpense(t, map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 500, "start_date": "2026-03-10", "due_day": 3})
	f.newExpense(t, map[string]any{"name": "Tax", "type": "QUARTERLY", "amount": 90, "start_date": "2026-01-01", "end_date": "2026-08-31"})
	path := fmt.Sprintf("/api/v1/workspaces/%d", ws)
	// The late fees and notices are off: the runs are the billing's.
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: path, Token: f.user.Token, Body: map[string]any{"time_zone": "Europe/Berlin", "schedule": map[string]any{"billing": "06:00", "late_fees": "off", "notices": "off", "invoices": "off"}}}).Expect(http.StatusOK)
	tick := func(want int) {
		t.Helper()
		n, err := q.Tick(context.Background())
		if err != nil || n != want {
			t.Fatalf("tick at %s: queued %d, %v; want %d", f.app.Clock.Now(), n, err, want)
		}
	}
	// 05:59 in Berlin (UTC+1 in November): not yet.
	f.app.Clock.Set(time.Date(2026, 11, 23, 4, 59, 0, 0, time.UTC))
	tick(0)
	f.app.Clock.Set(time.Date(2026, 11, 23, 5, 0, 0, 0, time.UTC))
	// Ticks at once (as on instances that each think they lead) queue the
	// day's run once.
	var wg sync.WaitGroup
	var queued atomic.Int64
	for range 5 {
		wg.Go(func() {
			n, err := q.Tick(context.Background())
			if err != nil {
				t.Errorf("tick: %v", err)
			}
			queued.Add(int64(n))
		})
	}
	wg.Wait()
	if queued.Load() != 1 {
		t.Fatalf("5 ticks at once queued %d runs", queued.Load())
	}
	tick(0) // once a day
	runs := waitForRuns(t, f, ws, 1)
	if r := runs[0]; r.Kind != "billing" || r.LocalDate != "2026-11-23" || r.Counts["charges_created"] != 9+3 || r.Counts["properties"] != 1 {
		t.Fatalf("first run %+v", r)
	}
	periods := func() []string {
		var out []string
		for _, c := range f.allCharges(t, "").Charges {
			out = append(out, c.Period)
		}
		sort.Strings(out)
		return out
	}
	if got := periods(); len(got) != 12 || got[0] != "2026-03" || got[11] != "2026-Q3" {
		t.Fatalf("charges after the first run: %v", got)
	}
	// The next day nothing is due; a day is still one run.
	f.app.Clock.Set(time.Date(2026, 11, 24, 5, 30, 0, 0, time.UTC))
	tick(1)
	if r := waitForRuns(t, f, ws, 2)[0]; r.Counts["charges_created"] != 0 || r.LocalDate != "2026-11-24" {
		t.Fatalf("second run %+v", r)
	}
	// December 1st: December's rent and nothing else.
	f.app.Clock.Set(time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC))
	tick(1)
	if r := waitForRuns(t, f, ws, 3)[0]; r.Counts["charges_created"] != 1 {
		t.Fatalf("December run %+v", r)
	}
	if got := periods(); len(got) != 13 || got[9] != "2026-12" {
		t.Fatalf("charges after December: %v", got)
	}
	// Switched off: no run.
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: path, Token: f.user.Token, Body: map[string]any{"schedule": map[string]any{"billing": "off"}}}).Expect(http.StatusOK)
	f.app.Clock.Set(time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC))
	tick(0)
}

// The schedule is checked: every problem in one 400, nothing changed.
func TestScheduleIsChecked(t *testing.T) {
	f := start(t)
	ws := workspaceOf(t, f)
	path := fmt.Sprintf("/api/v1/workspaces/%d", ws)
	var before map[string]any
	f.app.Get(path, f.user.Token).Expect(http.StatusOK).JSON(&before)
	if before["time_zone"] != "UTC" || before["schedule"].(map[string]any)["billing"] != "06:00" {
		t.Fatalf("defaults %v", before)
	}
	res := f.app.Do(testkit.Request{Method: http.MethodPatch, Path: path, Token: f.user.Token, Body: map[string]any{"name": "New name", "time_zone": "Mars/Olympus",
		"schedule": map[string]any{"billing": "25:00", "laundry": "06:00"}}}).Expect(http.StatusBadRequest)
	if details, _ := res.Map()["details"].([]any); len(details) != 3 {
		t.Fatalf("problems %s", res.String())
	}
	var after map[string]any
	f.app.Get(path, f.user.Token).Expect(http.StatusOK).JSON(&after)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("a refused change changed %v into %v", before, after)
	}
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: path, Token: f.user.Token, Body: map[string]any{}}).Expect(http.StatusBadRequest)
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: path, Token: f.user.Token, Body: map[string]any{"schedule": map[string]any{"billing": "07:15"}}}).Expect(http.StatusOK)
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: path, Token: f.user.Token, Body: map[string]any{"schedule": map[string]any{"billing": nil}}}).Expect(http.StatusOK).JSON(&after)
	if after["schedule"].(map[string]any)["billing"] != "06:00" {
		t.Fatalf("null did not restore the default: %v", after)
	}
}
