package penalties_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/jobs/jobstest"
	"github.com/propman/propman/platform/testkit"
)

func (f fixture) waitForRuns(t *testing.T, ws int64, n int) []jobstest.Run {
	t.Helper()
	return jobstest.WaitForRuns(t, f.app, f.user.Token, ws, n)
}

func (f fixture) workspace(t *testing.T) int64 { return jobstest.Workspace(t, f.app, f.user.Token) }

// The late fees run by themselves once a day at the workspace's local time
// (06:30 unless it chose another), after the billing: every active
// property's overdue charges get their penalty once, by the law of the
// property's country. In one workspace, on 2026-11-23 in Berlin:
//   - Spain, 5 %: September's, October's and November's rent (1000.00
//     each, unpaid) get 50.00 each;
//   - Germany, statutory interest claimed (and a 5 % the law voids):
//     November's rent, due 2026-11-01, 22 days at 1.27 + 5 = 6.27 %:
//     1000.00 x 0.0627 x 22 / 365 = 3.7791... -> 3.78, named "Default
//     interest: ...";
//   - France, a fixed 5 %: refused, nothing made, a problem of the run,
//     which goes on.
func TestLateFeesRunByThemselvesAtTheLocalTime(t *testing.T) {
	var q *jobs.Queue
	// The clock moves days ahead: tokens last longer than the test.
	f := start(t, testkit.WithPopulate(&q), testkit.WithConfig("auth.ttl", "2000h"), testkit.WithConfig("auth.maxage", "2000h"))
	ws := f.workspace(t)
	es := f.activeContract(t, "E-1", 1000, "2026-09-01", 5)
	f.catchUp(t)
	de := f.inCountry(t, "DE")
	deContract := de.activeContract(t, "D-1", 1000, "2026-11-01", 5, map[string]any{"code": "DE_STATUTORY_INTEREST", "value": true})
	de.catchUp(t)
	fr := f.inCountry(t, "FR")
	fr.activeContract(t, "FR-5", 800, "2026-10-01", 5)
	fr.catchUp(t)

	// The billing is off so that the runs are the late fees' only; the
	// late fees keep their default time.
	path := fmt.Sprintf("/api/v1/workspaces/%d", ws)
	var w struct {
		Schedule map[string]string `json:"schedule"`
	}
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: path, Token: f.user.Token,
		Body: map[string]any{"time_zone": "Europe/Berlin", "schedule": map[string]any{"billing": "off", "notices": "off", "invoices": "off"}}}).Expect(http.StatusOK).JSON(&w)
	if w.Schedule["late_fees"] != "06:30" {
		t.Fatalf("schedule %v, want late_fees at 06:30", w.Schedule)
	}
	tick := func(want int) {
		t.Helper()
		n, err := q.Tick(context.Background())
		if err != nil || n != want {
			t.Fatalf("tick at %s: queued %d, %v; want %d", f.app.Clock.Now(), n, err, want)
		}
	}

	// 06:29 in Berlin (UTC+1 in November): not yet.
	f.app.Clock.Set(time.Date(2026, 11, 23, 5, 29, 0, 0, time.UTC))
	tick(0)
	if l := f.penalties(t, ""); l.Total != 0 {
		t.Fatalf("%d penalties before the run", l.Total)
	}
	// 06:30: ticks at once queue the day's run once.
	f.app.Clock.Set(time.Date(2026, 11, 23, 5, 30, 0, 0, time.UTC))
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
	tick(0)
	r := f.waitForRuns(t, ws, 1)[0]
	want := map[string]int{"properties": 3, "fees_created": 4, "skipped": 0, "errors": 0, "refused": 1}
	if r.Kind != "late_fees" || r.LocalDate != "2026-11-23" || fmt.Sprint(r.Counts) != fmt.Sprint(want) {
		t.Fatalf("first run %+v, want counts %v", r, want)
	}
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "contract FR-5:") {
		t.Errorf("problems %q, want the French contract named", r.Problems)
	}

	fees := f.penalties(t, "?per_page=200")
	if fees.Total != 3 {
		t.Fatalf("Spain: %d penalties, want 3", fees.Total)
	}
	for _, p := range fees.Penalties {
		if p.Amount.String() != "50.00" || p.DueDate != "2026-11-23" || !strings.HasPrefix(p.Name, "Late fee: ") {
			t.Errorf("Spanish penalty %+v", p)
		}
	}
	nov := de.rentOf(t, deContract, "2026-11")
	deFees := de.penalties(t, "")
	if deFees.Total != 1 {
		t.Fatalf("Germany: %d penalties, want 1", deFees.Total)
	}
	if p := deFees.Penalties[0]; p.Amount.String() != "3.78" || p.Name != "Default interest: "+nov.Name || *p.PenaltyFor != nov.ID {
		t.Errorf("German penalty %+v, want 3.78 of interest on %s", p, nov.ID)
	}
	if l := fr.penalties(t, ""); l.Total != 0 {
		t.Errorf("France: %d penalties", l.Total)
	}
	if c := f.chargeOf(t, es, "2026-11"); c.Status == "paid" {
		t.Fatalf("November's rent %+v", c)
	}

	// The next day: one run, nothing made twice.
	f.app.Clock.Set(time.Date(2026, 11, 24, 5, 45, 0, 0, time.UTC))
	tick(1)
	tick(0)
	r = f.waitForRuns(t, ws, 2)[0]
	want = map[string]int{"properties": 3, "fees_created": 0, "skipped": 4, "errors": 0, "refused": 1}
	if r.LocalDate != "2026-11-24" || fmt.Sprint(r.Counts) != fmt.Sprint(want) {
		t.Fatalf("second run %+v, want counts %v", r, want)
	}
	if n := f.penalties(t, "").Total + de.penalties(t, "").Total; n != 4 {
		t.Fatalf("%d penalties after the second day, want 4", n)
	}

	// Switched off: no run, whatever the hour.
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: path, Token: f.user.Token,
		Body: map[string]any{"schedule": map[string]any{"late_fees": "off"}}}).Expect(http.StatusOK)
	f.app.Clock.Set(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	tick(0)
	f.app.Clock.Set(time.Date(2026, 11, 26, 22, 59, 0, 0, time.UTC))
	tick(0)
}

// A workspace's own time for the late fees: 09:15 in New York (UTC-5) is
// 14:15 UTC; 14:14 is not yet.
func TestLateFeesAtTheWorkspacesChosenTime(t *testing.T) {
	var q *jobs.Queue
	f := start(t, testkit.WithPopulate(&q), testkit.WithConfig("auth.ttl", "2000h"), testkit.WithConfig("auth.maxage", "2000h"))
	ws := f.workspace(t)
	f.activeContract(t, "E-2", 1000, "2026-11-01", 5)
	f.catchUp(t)
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: fmt.Sprintf("/api/v1/workspaces/%d", ws), Token: f.user.Token,
		Body: map[string]any{"time_zone": "America/New_York", "schedule": map[string]any{"billing": "off", "notices": "off", "invoices": "off", "late_fees": "09:15"}}}).Expect(http.StatusOK)
	f.app.Clock.Set(time.Date(2026, 11, 23, 14, 14, 0, 0, time.UTC))
	if n, err := q.Tick(context.Background()); n != 0 || err != nil {
		t.Fatalf("tick at 09:14: %d, %v", n, err)
	}
	f.app.Clock.Set(time.Date(2026, 11, 23, 14, 15, 0, 0, time.UTC))
	if n, err := q.Tick(context.Background()); n != 1 || err != nil {
		t.Fatalf("tick at 09:15: %d, %v", n, err)
	}
	if r := f.waitForRuns(t, ws, 1)[0]; r.Kind != "late_fees" || r.Counts["fees_created"] != 1 {
		t.Fatalf("run %+v", r)
	}
	if l := f.penalties(t, ""); l.Total != 1 || l.Penalties[0].Amount.String() != "50.00" {
		t.Fatalf("penalties %+v", l)
	}
}
