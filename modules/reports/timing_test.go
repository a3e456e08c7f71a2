package reports_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

// seedUnits gives the landlord of p n units the way tools/portfolio/seed
// does on PostgreSQL (a tenant and an active contract a unit, 49 monthly
// rents from 2022-09 of which 24 paid, 2 late fees, 24 payments), in SQL
// both engines run, so the reports can be timed on SQLite too.
func seedUnits(t *testing.T, app *testkit.App, p portfolio, n int) {
	t.Helper()
	ctx := context.Background()
	var ws int64
	if err := app.DB.NewRaw("SELECT id FROM workspaces WHERE landlord_id = ?", p.user.ID).Scan(ctx, &ws); err != nil {
		t.Fatal(err)
	}
	pg := testkit.Engine() == "postgres"
	id := func(kind int, expr string) string {
		if pg {
			return fmt.Sprintf("('00000000-0000-7000-9%03d-' || lpad((%s)::text, 12, '0'))::uuid", kind, expr)
		}
		return fmt.Sprintf("printf('00000000-0000-7000-9%03d-%%012d', %s)", kind, expr)
	}
	month := func(start, k string) string {
		if pg {
			return "(date '" + start + "' + (" + k + " - 1) * interval '1 month')::date"
		}
		return "date('" + start + "', '+' || (" + k + " - 1) || ' months')"
	}
	units := "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + strconv.Itoa(n) + ") "
	ks := func(k int) string {
		return ", k(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM k WHERE k < " + strconv.Itoa(k) + ") "
	}
	now := "'2022-08-01 00:00:00'"
	if pg {
		now = "timestamptz '2022-08-01 00:00:00Z'"
	}
	w, o := strconv.FormatInt(ws, 10), strconv.FormatInt(p.user.ID, 10)
	steps := []string{
		units + `INSERT INTO properties (id, owner_id, workspace_id, name, address, city, postal_code, country_code, currency, created_at, updated_at)
			SELECT ` + id(1, "i") + `, ` + o + `, ` + w + `, 'Unit ' || i, 'Hauptstrasse ' || i, 'Berlin', '10115', 'DE', 'EUR', ` + now + `, ` + now + ` FROM n`,
		units + `INSERT INTO contragents (id, owner_id, workspace_id, kind, roles, name, name_search, email, created_at, updated_at)
			SELECT ` + id(2, "i") + `, ` + o + `, ` + w + `, 'person', '["tenant"]', 'Tenant ' || i, 'tenant ' || i, '', ` + now + `, ` + now + ` FROM n`,
		units + `INSERT INTO contracts (id, owner_id, workspace_id, property_id, tenant_id, number, status, locale, terms, currency,
				start_date, rent_minor, deposit_minor, due_day, created_at, updated_at)
			SELECT ` + id(3, "i") + `, ` + o + `, ` + w + `, ` + id(1, "i") + `, ` + id(2, "i") + `, 'T-' || i, 'active', 'en', '[]', 'EUR',
				'2022-09-01', 95000, 190000, 1, ` + now + `, ` + now + ` FROM n`,
		units + ks(49) + `INSERT INTO charges (id, property_id, origin, name, amount_minor, currency, period, due_date, status, paid_amount_minor, kind, contract_id, created_at)
			SELECT ` + id(4, "i * 100 + k") + `, ` + id(1, "i") + `, ` + id(4, "i * 100 + k") + `, 'Rent', 95000, 'EUR', 'P' || k, ` + month("2022-09-01", "k") + `,
				CASE WHEN k <= 24 THEN 'paid' ELSE 'unpaid' END, CASE WHEN k <= 24 THEN 95000 ELSE 0 END, 'regular', ` + id(3, "i") + `, ` + now + ` FROM n, k`,
		units + ks(2) + `INSERT INTO charges (id, property_id, origin, name, amount_minor, currency, period, due_date, status, paid_amount_minor, kind, contract_id, created_at)
			SELECT ` + id(5, "i * 100 + k") + `, ` + id(1, "i") + `, ` + id(5, "i * 100 + k") + `, 'Late fee', 500, 'EUR', 'F' || k, ` + month("2026-08-15", "k") + `,
				'unpaid', 0, 'penalty', ` + id(3, "i") + `, ` + now + ` FROM n, k`,
		units + ks(24) + `INSERT INTO payments (id, property_id, owner_id, contract_id, amount_minor, currency, paid_on, method, reference, status, unallocated_minor, created_by, created_at, updated_at)
			SELECT ` + id(6, "i * 100 + k") + `, ` + id(1, "i") + `, ` + o + `, ` + id(3, "i") + `, 95000, 'EUR', ` + month("2022-09-03", "k") + `, 'bank_transfer', 'Rent', 'posted', 0, ` + o + `, ` + now + `, ` + now + ` FROM n, k`,
		units + ks(24) + `INSERT INTO payment_allocations (payment_id, charge_id, property_id, amount_minor, created_at)
			SELECT ` + id(6, "i * 100 + k") + `, ` + id(4, "i * 100 + k") + `, ` + id(1, "i") + `, 95000, ` + now + ` FROM n, k`,
	}
	for _, q := range steps {
		if _, err := app.DB.ExecContext(ctx, q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
	if pg {
		for _, table := range []string{"properties", "contragents", "contracts", "charges", "payments"} {
			if _, err := app.DB.ExecContext(ctx, "ANALYZE "+table); err != nil {
				t.Fatal(err)
			}
		}
	} else if _, err := app.DB.ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
}

// TestReportTimes times the reports on the engine under test over
// PROPMAN_REPORTS_UNITS units (skipped when unset): median and p99 of
// each report, rows/s of the CSV of every charge, and GET /api/v1 in the
// same rounds as the ceiling. Run it on both engines to compare them:
//
//	PROPMAN_REPORTS_UNITS=1000 go test -run TestReportTimes -v ./modules/reports/
func TestReportTimes(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PROPMAN_REPORTS_UNITS"))
	if n <= 0 {
		t.Skip("set PROPMAN_REPORTS_UNITS to time the reports")
	}
	app := testkit.Start(t, testkit.WithListener())
	p := generate(t, app, 1, 1)
	seedUnits(t, app, p, n)
	cases := []struct{ name, path string }{
		{"ceiling: GET /api/v1", "/api/v1"},
		{"arrears", base + "/arrears?as_of=2026-11-22"},
		{"rent roll", base + "/rent-roll?as_of=2026-11-22"},
		{"income 2025", base + "/income?year=2025"},
	}
	const rounds, per = 3, 10
	samples := make([][]time.Duration, len(cases))
	var rates, cpuRates []float64
	for r := 0; r < rounds; r++ {
		for i, c := range cases {
			for k := 0; k < per; k++ {
				req, _ := http.NewRequest(http.MethodGet, app.URL+c.path, nil)
				req.Header.Set("Authorization", "Bearer "+p.user.Token)
				start := time.Now()
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
				samples[i] = append(samples[i], time.Since(start))
				if res.StatusCode != http.StatusOK {
					t.Fatalf("%s: %d", c.path, res.StatusCode)
				}
			}
		}
		cpu0 := cpuTime()
		_, rows, took := peakHeap(t, app, base+"/charges?format=csv", p.user.Token)
		rates = append(rates, float64(rows-1)/took.Seconds())
		cpuRates = append(cpuRates, float64(rows-1)/(cpuTime()-cpu0).Seconds())
	}
	for i, c := range cases {
		s := slices.Clone(samples[i])
		slices.Sort(s)
		t.Logf("%s %d units: %-22s median %7.2f ms  p99 %7.2f ms", testkit.Engine(), n, c.name,
			float64(s[len(s)/2].Microseconds())/1000, float64(s[len(s)*99/100].Microseconds())/1000)
	}
	slices.Sort(rates)
	t.Logf("%s %d units: CSV of every charge: median %.0f rows/s (min %.0f, max %.0f)", testkit.Engine(), n, rates[len(rates)/2], rates[0], rates[len(rates)-1])
	// Rows per second of this process's CPU (server and client; on
	// PostgreSQL the database's own CPU is not in it): what the export
	// costs whatever else the machine runs.
	slices.Sort(cpuRates)
	t.Logf("%s %d units: CSV of every charge: median %.0f rows per CPU-second of the test process (min %.0f, max %.0f)",
		testkit.Engine(), n, cpuRates[len(cpuRates)/2], cpuRates[0], cpuRates[len(cpuRates)-1])
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
