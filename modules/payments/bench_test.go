package payments_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// seedCharges inserts n open charges of 10.00 under the property.
func seedCharges(b *testing.B, f fixture, n int) []expenses.Charge {
	b.Helper()
	pid := uuid.MustParse(f.property)
	now := f.app.Clock.Now()
	list := make([]expenses.Charge, n)
	for i := range list {
		id := uuid.Must(uuid.NewV7())
		list[i] = expenses.Charge{ID: id, PropertyID: pid, Origin: id, Name: "C", Amount: 1000, Currency: "EUR",
			Period: "2026-11", DueDate: period.NewDate(2020, 1, 1).AddDays(i % 2000), Status: expenses.Unpaid,
			Kind: expenses.Regular, CreatedAt: now}
	}
	for start := 0; start < n; start += 1000 {
		batch := list[start:min(start+1000, n)]
		if _, err := f.app.DB.NewInsert().Model(&batch).Exec(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	return list
}

func (f fixture) send(b *testing.B, method, path, body string) {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+f.user.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := f.app.Fiber.Test(req, -1)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		b.Fatalf("%s %s: %d %s", method, path, res.StatusCode, out)
	}
}

// BenchmarkPostOver1000Charges posts, through HTTP, a payment that pays
// 1,000 open charges oldest first (its receipt included); each iteration
// gets fresh charges.
func BenchmarkPostOver1000Charges(b *testing.B) {
	f := start(b)
	b.Run(f.app.Engine, func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			seedCharges(b, f, 1000)
			b.StartTimer()
			f.send(b, http.MethodPost, f.url("/payments"), `{"amount": 10000.00, "method": "bank_transfer"}`)
		}
	})
}

// BenchmarkBalance reads the balance of a property with 10,000 charges and
// 5,000 payments.
func BenchmarkBalance(b *testing.B) {
	f := start(b)
	charges := seedCharges(b, f, 10000)
	pid := uuid.MustParse(f.property)
	now := f.app.Clock.Now()
	pays := make([]payments.Payment, 5000)
	allocs := make([]payments.Allocation, 5000)
	for i := range pays {
		id := uuid.Must(uuid.NewV7())
		pays[i] = payments.Payment{ID: id, PropertyID: pid, OwnerID: f.user.ID, Amount: 500, Currency: "EUR",
			PaidOn: period.NewDate(2026, 1, 1), Method: "cash", Status: payments.Posted, CreatedBy: f.user.ID,
			CreatedAt: now, UpdatedAt: now}
		allocs[i] = payments.Allocation{PaymentID: id, ChargeID: charges[i].ID, PropertyID: pid, Amount: 500, CreatedAt: now}
	}
	ctx := context.Background()
	for start := 0; start < len(pays); start += 1000 {
		p, a := pays[start:start+1000], allocs[start:start+1000]
		if _, err := f.app.DB.NewInsert().Model(&p).Exec(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := f.app.DB.NewInsert().Model(&a).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := f.app.DB.NewUpdate().Table("charges").Set("paid_amount_minor = 500").
		Where("id IN (SELECT charge_id FROM payment_allocations)").Exec(ctx); err != nil {
		b.Fatal(err)
	}
	b.Run(f.app.Engine, func(b *testing.B) {
		for range b.N {
			f.send(b, http.MethodGet, f.url("/balance"), "")
		}
	})
}

// BenchmarkCatchUp60Months bills 60 missed months of 100 monthly expenses
// (6,000 charges) with refresh-all?since=; each iteration starts with no
// charges.
func BenchmarkCatchUp60Months(b *testing.B) {
	f := start(b)
	pid := uuid.MustParse(f.property)
	now := f.app.Clock.Now()
	list := make([]expenses.Expense, 100)
	for i := range list {
		list[i] = expenses.Expense{ID: uuid.Must(uuid.NewV7()), PropertyID: pid, Name: fmt.Sprint("E", i), Type: expenses.Monthly,
			Amount: money.Amount(1000 + i), Currency: "EUR", IsActive: true, StartDate: period.NewDate(2020, 1, 1), DueDay: 1,
			CreatedAt: now, UpdatedAt: now}
	}
	if _, err := f.app.DB.NewInsert().Model(&list).Exec(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Run(f.app.Engine, func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			if _, err := f.app.DB.NewDelete().Table("charges").Where("TRUE").Exec(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			f.send(b, http.MethodPost, f.url("/expenses/refresh-all?since=2021-12"), "")
		}
	})
}

// stepTimes adds up, while on, the time of each statement by its first
// words: where BenchmarkPostOver1000ChargesSteps says the time goes.
type stepTimes struct {
	mu    sync.Mutex
	on    bool
	times map[string]time.Duration
}

func (h *stepTimes) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context { return ctx }

func (h *stepTimes) AfterQuery(_ context.Context, e *bun.QueryEvent) {
	took := time.Since(e.StartTime)
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.on {
		return
	}
	step := "other-ms"
	for _, s := range []struct{ prefix, name string }{
		{`SELECT "charge"`, "select-open-ms"}, {"INSERT INTO payment_allocations", "insert-allocations-ms"},
		{`INSERT INTO "payment_allocations"`, "insert-allocations-ms"}, {"UPDATE charges", "update-charges-ms"},
		{"WITH d", "update-charges-ms"}, {`INSERT INTO "receipts"`, "insert-receipt-ms"}, {"COMMIT", "commit-ms"},
	} {
		if strings.HasPrefix(strings.TrimSpace(e.Query), s.prefix) {
			step = s.name
			break
		}
	}
	h.times[step] += took
}

// BenchmarkPostOver1000ChargesSteps is BenchmarkPostOver1000Charges with
// the time of its statements by step (ms per payment, measured in the
// client: round trip and scanning included); "rest-ms" is what is not a
// statement (HTTP, JSON, the Go side).
func BenchmarkPostOver1000ChargesSteps(b *testing.B) {
	f := start(b)
	h := &stepTimes{times: map[string]time.Duration{}}
	// The app's own DB must carry the hook; WithQueryHook returns a copy.
	f.app.DB.AddQueryHook(h) //nolint:staticcheck // see above
	b.Run(f.app.Engine, func(b *testing.B) {
		var total time.Duration
		for range b.N {
			b.StopTimer()
			seedCharges(b, f, 1000)
			h.mu.Lock()
			h.on = true
			h.mu.Unlock()
			b.StartTimer()
			t0 := time.Now()
			f.send(b, http.MethodPost, f.url("/payments"), `{"amount": 10000.00, "method": "bank_transfer"}`)
			total += time.Since(t0)
			h.mu.Lock()
			h.on = false
			h.mu.Unlock()
		}
		perOp := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
		var queries time.Duration
		for step, d := range h.times {
			b.ReportMetric(perOp(d), step)
			queries += d
		}
		b.ReportMetric(perOp(total-queries), "rest-ms")
	})
}
