package compensations_test

import (
	"net/http"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// settled is a German tenancy whose deposit was settled with one
// deduction, for the benchmarks.
func settled(b *testing.B) (*testkit.App, string, tenancy, string) {
	app, token := start(b)
	f := lease(b, app, token, "DE", "de", "B-1",
		map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 1000}, map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-08-01"},
		map[string]any{"code": "DEPOSIT_AMOUNT", "value": 3000})
	app.Post(f.path("/expenses/refresh-all?since=2026-08"), token, nil).Expect(http.StatusOK)
	app.Post(f.path("/payments"), token, map[string]any{"amount": 5000, "paid_on": "2026-11-01", "method": "cash", "contract_id": f.contract}).Expect(http.StatusCreated)
	app.Post("/api/v1/contracts/"+f.contract+"/terminate", token, map[string]any{"date": "2026-11-15", "reason": "x"}).Expect(http.StatusOK)
	st := id(b, app.Post(f.path("/compensations/deposit-settlements"), token, map[string]any{"contract_id": f.contract,
		"deductions": []map[string]any{{"reason": "Malerarbeiten", "amount": 412.37}}}).Expect(http.StatusCreated))
	return app, token, f, st
}

// BenchmarkSettlementRead: GET of a contract's settlement (the list
// filtered to it) against a bare Fiber handler sending the same bytes (the
// ceiling, measured in the same run).
func BenchmarkSettlementRead(b *testing.B) {
	app, token, f, _ := settled(b)
	testkit.BenchAgainstBare(b, app, "settlement", f.path("/compensations/deposit-settlements?contract_id="+f.contract), token)
}

// BenchmarkStatementPDF: the statement drawn on every request (no cache).
func BenchmarkStatementPDF(b *testing.B) {
	app, token, _, st := settled(b)
	path := "/api/v1/print-forms/deposit-settlements/" + st
	b.Run(testkit.Engine(), func(b *testing.B) {
		for range b.N {
			if res := app.Do(testkit.Request{Method: http.MethodGet, Path: path, Token: token}); res.Status != http.StatusOK {
				b.Fatalf("statement: %d", res.Status)
			}
		}
	})
}
