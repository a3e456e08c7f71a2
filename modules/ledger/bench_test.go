package ledger_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/ledger"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

// BenchmarkPostPayment posts, through HTTP, a payment of 1.00 on a
// contract with open charges (allocated to the oldest, receipt included),
// with the ledger on (the payment's entry written in its transaction) and
// off (the catalogue without it): the ratio is what journaling costs a
// payment.
func BenchmarkPostPayment(b *testing.B) {
	var without []module.Entry
	for _, e := range modules.Catalog() {
		// Without the ledger, and without what reads it (the tax year).
		if e.Name != ledger.Name && !slices.Contains(e.Depends, ledger.Name) {
			without = append(without, e)
		}
	}
	for _, c := range []struct {
		name    string
		entries []module.Entry
	}{{"ledger", modules.Catalog()}, {"without", without}} {
		b.Run(c.name, func(b *testing.B) {
			app := testkit.Start(b, testkit.WithEntries(c.entries))
			token := newToken(b, app)
			f := lease(b, app, token, "DE", "de", "B-1", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 900000},
				map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-01-01"})
			app.Post(f.path("/expenses/refresh-all?since=2026-01"), token, nil).Expect(http.StatusOK)
			body := `{"amount": 1.00, "paid_on": "2026-11-02", "method": "bank_transfer", "contract_id": "` + f.contract + `"}`
			b.ResetTimer()
			for range b.N {
				req := httptest.NewRequest(http.MethodPost, f.path("/payments"), strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+token)
				req.Header.Set("Content-Type", "application/json")
				res, err := app.Fiber.Test(req, -1)
				if err != nil {
					b.Fatal(err)
				}
				out, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusCreated {
					b.Fatalf("%d %s", res.StatusCode, out)
				}
			}
		})
	}
}

// BenchmarkPostPaymentPaired runs both apps of BenchmarkPostPayment side
// by side and posts one payment on each in turn, timing each request: on
// a machine whose load changes from second to second, the two see the
// same moments, which separate runs do not (their spread was larger than
// the difference). It reports each side's mean and their ratio.
func BenchmarkPostPaymentPaired(b *testing.B) {
	var without []module.Entry
	for _, e := range modules.Catalog() {
		if e.Name != ledger.Name && !slices.Contains(e.Depends, ledger.Name) {
			without = append(without, e)
		}
	}
	type side struct {
		app   *testkit.App
		token string
		path  string
		body  string
		took  time.Duration
	}
	var sides [2]*side
	for i, entries := range [][]module.Entry{modules.Catalog(), without} {
		app := testkit.Start(b, testkit.WithEntries(entries))
		token := newToken(b, app)
		f := lease(b, app, token, "DE", "de", "B-1", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 900000},
			map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-01-01"})
		app.Post(f.path("/expenses/refresh-all?since=2026-01"), token, nil).Expect(http.StatusOK)
		sides[i] = &side{app: app, token: token, path: f.path("/payments"),
			body: `{"amount": 1.00, "paid_on": "2026-11-02", "method": "bank_transfer", "contract_id": "` + f.contract + `"}`}
	}
	post := func(s *side) {
		req := httptest.NewRequest(http.MethodPost, s.path, strings.NewReader(s.body))
		req.Header.Set("Authorization", "Bearer "+s.token)
		req.Header.Set("Content-Type", "application/json")
		began := time.Now()
		res, err := s.app.Fiber.Test(req, -1)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(res.Body)
		res.Body.Close()
		s.took += time.Since(began)
		if res.StatusCode != http.StatusCreated {
			b.Fatalf("%d %s", res.StatusCode, out)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		// Which goes first alternates too.
		post(sides[i%2])
		post(sides[1-i%2])
	}
	b.StopTimer()
	on, off := float64(sides[0].took.Nanoseconds())/float64(b.N), float64(sides[1].took.Nanoseconds())/float64(b.N)
	b.ReportMetric(on/1e6, "ms-ledger/op")
	b.ReportMetric(off/1e6, "ms-without/op")
	b.ReportMetric(on/off, "ratio")
}
