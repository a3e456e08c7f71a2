package reports_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

// seedCharges adds n unpaid charges to the property in one statement
// (test data at a size the API would take minutes to build).
func seedCharges(t *testing.T, app *testkit.App, propertyID string, n int) {
	t.Helper()
	id := "printf('00000000-0000-7000-8%03d-%012d', ?, i)"
	if testkit.Engine() == "postgres" {
		id = "('00000000-0000-7000-8' || lpad(?::text, 3, '0') || '-' || lpad(i::text, 12, '0'))::uuid"
	}
	tag := time.Now().Nanosecond() % 1000
	q := `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO charges (id, property_id, origin, name, amount_minor, currency, period, due_date, status, created_at, paid_amount_minor, kind)
		SELECT ` + id + `, ?, ` + id + `, '=Charge ' || i, 1000 + i, 'EUR', 'M' || i, '2026-01-01', 'unpaid', ?, 0, 'regular' FROM n`
	if _, err := app.DB.NewRaw(q, n, tag, propertyID, tag, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// peakHeap downloads path with a client that throws the body away and
// returns the largest heap in use while it ran (sampled every 10 ms), the
// rows (lines) received and the time taken.
func peakHeap(t *testing.T, app *testkit.App, path, token string) (peak uint64, rows int, took time.Duration) {
	t.Helper()
	runtime.GC()
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			mu.Lock()
			if ms.HeapInuse > peak {
				peak = ms.HeapInuse
			}
			mu.Unlock()
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	req, _ := http.NewRequest(http.MethodGet, app.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	start := time.Now()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("%s: %d %s", path, res.StatusCode, b)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		rows++
	}
	took = time.Since(start)
	close(done)
	mu.Lock()
	defer mu.Unlock()
	return peak, rows, took
}

// TestExportsStreamInFlatMemory measures the heap while charges stream
// as CSV (10,000 against 100,000 rows), as XLSX (50,000 against 100,000:
// excelize's stream writer keeps 16 MiB of a sheet in memory before it
// spills to a temporary file, so both sizes are past that point) and as a
// property's charge list read page by page: ten (or two) times the rows
// may not take more than a few MiB more at the peak.
func TestExportsStreamInFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 160,000 charges")
	}
	// An answer must be written within http.writetimeout (30 s by
	// default); the list read page by page takes longer than that for
	// 100,000 rows on a busy machine.
	// The heap in use peaks up to GOGC% above what is live before the
	// collector runs, so at the default the peak moved by 12 MiB between
	// runs of one build; collecting at 20% makes it follow what the export
	// keeps. No job worker: its background work is not the export's.
	defer debug.SetGCPercent(debug.SetGCPercent(20))
	// The rows are seeded by SQL, past the services: the ledger, which
	// books what the services do, is off so its invariants are not asked.
	app := testkit.Start(t, testkit.WithListener(), testkit.WithConfig("http.writetimeout", "10m"), testkit.WithConfig("jobs.work", false),
		testkit.WithConfig("modules.ledger.enabled", false), testkit.WithConfig("modules.taxyear.enabled", false))
	small, mid, big := generate(t, app, 1, 21), generate(t, app, 1, 22), generate(t, app, 1, 23)
	seedCharges(t, app, small.units[0].ID, 10_000)
	seedCharges(t, app, mid.units[0].ID, 50_000)
	seedCharges(t, app, big.units[0].ID, 100_000)
	const slack = 12 << 20
	for _, c := range []struct {
		name         string
		path         func(portfolio) string
		from         portfolio
		fromN, lines int
	}{
		{"workspace CSV", func(portfolio) string { return base + "/charges?format=csv" }, small, 10_000, 1},
		{"workspace XLSX", func(portfolio) string { return base + "/charges?format=xlsx" }, mid, 50_000, 0},
		{"list CSV", func(p portfolio) string { return "/api/v1/properties/" + p.units[0].ID + "/charges?format=csv" }, small, 10_000, 1},
	} {
		h1, r1, t1 := peakHeap(t, app, c.path(c.from), c.from.user.Token)
		h2, r2, t2 := peakHeap(t, app, c.path(big), big.user.Token)
		t.Logf("%s: %d rows: peak heap %.1f MiB, %v; 100,000 rows: peak heap %.1f MiB, %v (%.0f rows/s)",
			c.name, c.fromN, float64(h1)/(1<<20), t1.Round(time.Millisecond), float64(h2)/(1<<20), t2.Round(time.Millisecond),
			float64(100_000)/t2.Seconds())
		if c.lines > 0 && (r1 < c.fromN || r2 < 100_000) {
			t.Errorf("%s: %d and %d lines", c.name, r1, r2)
		}
		if h2 > h1+slack {
			t.Errorf("%s: the heap grew with the rows: %d MiB at %d, %d MiB at 100,000", c.name, h1>>20, c.fromN, h2>>20)
		}
	}
}
