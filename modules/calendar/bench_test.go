package calendar_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/period"
)

// seedPortfolio writes, straight into the tables, 1,000 properties with an
// active contract each (rent due on day 1..28, one in twenty ending in 2027
// with a deposit) and 50 stored events, a third of them recurring.
func seedPortfolio(b *testing.B, f fixture) {
	b.Helper()
	var list struct {
		Workspaces []struct {
			ID int64 `json:"id"`
		} `json:"workspaces"`
	}
	f.app.Get("/api/v1/workspaces", f.user.Token).Expect(http.StatusOK).JSON(&list)
	ws := list.Workspaces[0].ID
	now := f.app.Clock.Now().UTC()
	props := make([]properties.Property, 1000)
	cons := make([]contracts.Contract, 1000)
	rent, deposit := int64(95000), int64(285000)
	for i := range props {
		props[i] = properties.Property{ID: uuid.Must(uuid.NewV7()), OwnerID: f.user.ID, WorkspaceID: ws, Name: fmt.Sprintf("Flat %d", i),
			CountryCode: []string{"DE", "FR", "ES", "GB"}[i%4], Currency: "EUR", CreatedAt: now, UpdatedAt: now}
		c := contracts.Contract{ID: uuid.Must(uuid.NewV7()), OwnerID: f.user.ID, WorkspaceID: ws, PropertyID: props[i].ID,
			TenantID: uuid.MustParse(f.tenant), Number: fmt.Sprintf("P-%d", i), Status: contracts.Active, Locale: "de", Terms: "[]",
			Currency: "EUR", StartDate: period.NewDate(2025, 1, 1), RentMinor: &rent, DueDay: 1 + i%28,
			AllocationOrder: contracts.OldestFirst, LateFeeBase: contracts.BasePeriodic, CreatedAt: now, UpdatedAt: now}
		if i%20 == 0 {
			c.EndDate = period.NewDate(2027, time.Month(1+i%12), 28)
			c.DepositMinor = &deposit
		}
		cons[i] = c
	}
	ctx := context.Background()
	if _, err := f.app.DB.NewInsert().Model(&props).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := f.app.DB.NewInsert().Model(&cons).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		body := map[string]any{"title": fmt.Sprintf("Viewing %d", i), "kind": "viewing", "time_zone": "Europe/Berlin",
			"starts_at": fmt.Sprintf("2026-12-%02dT10:00:00+01:00", 1+i%28), "ends_at": fmt.Sprintf("2026-12-%02dT11:00:00+01:00", 1+i%28),
			"property_id": props[i].ID.String()}
		if i%3 == 0 {
			body["rrule"] = "FREQ=WEEKLY;BYDAY=MO,TH"
		}
		f.create(b, body)
	}
}

func timeGet(b *testing.B, f fixture, path string) []byte {
	b.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+f.user.Token)
	res, err := f.app.Fiber.Test(req, -1)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
	}
	return body
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs get b.N times and reports, beside the wall time, the CPU
// time per call: on a machine shared with other work the wall time
// includes waiting for a core.
func measure(b *testing.B, get func()) {
	b.Helper()
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		get()
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkPortfolio measures, through the whole HTTP stack, the feed of a
// workspace with 1,000 contracts over a year (about 12,000 derived events
// and the stored ones) and a 366-day window of the API; each beside a
// ceiling: a bare Fiber app sending the same bytes, measured in the same
// run.
func BenchmarkPortfolio(b *testing.B) {
	f := start(b)
	seedPortfolio(b, f)
	tok := f.rotate(b)
	window := base + "?from=2026-11-22&to=2027-11-22"
	var w windowAnswer
	f.app.Get(window, f.user.Token).Expect(http.StatusOK).JSON(&w)
	derived := 0
	for _, o := range w.Occurrences {
		if o.Source == "derived" {
			derived++
		}
	}
	if derived < 11500 {
		b.Fatalf("only %d derived events in the window", derived)
	}
	b.Logf("window: %d occurrences, %d derived", len(w.Occurrences), derived)
	for _, c := range []struct{ name, path string }{{"feed", tok.URL}, {"window366", window}} {
		body := timeGet(b, f, c.path)
		b.Logf("%s: %d bytes", c.name, len(body))
		bare := fiber.New(fiber.Config{DisableStartupMessage: true})
		bare.Get("/bare", func(c *fiber.Ctx) error { return c.Send(body) })
		b.Run(c.name+"/"+f.app.Engine, func(b *testing.B) {
			measure(b, func() { timeGet(b, f, c.path) })
		})
		b.Run(c.name+"/bare-ceiling", func(b *testing.B) {
			measure(b, func() {
				res, err := bare.Test(httptest.NewRequest(http.MethodGet, "/bare", nil), -1)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			})
		})
	}
}
