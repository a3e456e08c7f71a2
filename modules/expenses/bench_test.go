package expenses_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// BenchmarkRefreshAll measures POST .../refresh-all through the whole HTTP
// stack for a property with 100 and 1,000 automatic expenses: "create" with
// no charges yet (every expense gets one), "skip" when they all exist.
func BenchmarkRefreshAll(b *testing.B) {
	for _, n := range []int{100, 1000} {
		f := start(b)
		pid := uuid.MustParse(f.property)
		now := f.app.Clock.Now()
		list := make([]expenses.Expense, n)
		for i := range list {
			list[i] = expenses.Expense{
				ID: uuid.Must(uuid.NewV7()), PropertyID: pid, Name: fmt.Sprintf("Expense %d", i),
				Type: []string{expenses.Monthly, expenses.Quarterly, expenses.Yearly}[i%3], Amount: money.Amount(1000 + i),
				Currency: "EUR", IsActive: true, StartDate: period.NewDate(2026, 1, 1), DueDay: 1 + i%28,
				CreatedAt: now, UpdatedAt: now,
			}
		}
		if _, err := f.app.DB.NewInsert().Model(&list).Exec(context.Background()); err != nil {
			b.Fatal(err)
		}
		refresh := func(b *testing.B) (created, skipped int) {
			req := httptest.NewRequest(http.MethodPost, f.refresh(), nil)
			req.Header.Set("Authorization", "Bearer "+f.user.Token)
			res, err := f.app.Fiber.Test(req, -1)
			if err != nil {
				b.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			var r refreshResult
			if res.StatusCode != http.StatusOK || json.Unmarshal(body, &r) != nil || r.Errors != 0 {
				b.Fatalf("refresh-all: %d %s", res.StatusCode, body)
			}
			return r.Created, r.Skipped
		}
		b.Run(fmt.Sprintf("create/%s/%d", f.app.Engine, n), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				if _, err := f.app.DB.NewDelete().Table("charges").Where("TRUE").Exec(context.Background()); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if created, _ := refresh(b); created != n {
					b.Fatalf("created %d, want %d", created, n)
				}
			}
		})
		b.Run(fmt.Sprintf("skip/%s/%d", f.app.Engine, n), func(b *testing.B) {
			// "create" above deleted and inserted every charge b.N times.
			// On PostgreSQL those dead rows stay in the table and its
			// indexes until autovacuum comes by, and a skip walks them:
			// 10 ms instead of 4 for 1,000 expenses, the churn of the
			// benchmark itself, not of a service's table. Vacuum first, as
			// autovacuum would.
			if f.app.Engine == "postgres" {
				if _, err := f.app.DB.ExecContext(context.Background(), "VACUUM ANALYZE charges"); err != nil {
					b.Fatal(err)
				}
			}
			refresh(b)
			b.ResetTimer()
			for range b.N {
				if _, skipped := refresh(b); skipped != n {
					b.Fatalf("skipped %d, want %d", skipped, n)
				}
			}
		})
	}
}
