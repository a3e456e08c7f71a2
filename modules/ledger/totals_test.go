package ledger_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/ledger"
	"github.com/propman/propman/platform/testkit"
)

// The balances are read from daily totals plus the deltas not yet moved
// into them: before, between and after the moves, at every day asked,
// they equal the sums of the journal's lines the test adds up itself.
func TestBalancesFromTotalsAndDeltas(t *testing.T) {
	var svc *ledger.Service
	app, token := start(t, testkit.WithConfig("modules.ledger.compact", "0"), testkit.WithPopulate(&svc))
	f := lease(t, app, token, "DE", "de", "T-1", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 700},
		map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-06-01"}, map[string]any{"code": "DEPOSIT_AMOUNT", "value": 1400})
	app.Post(f.path("/expenses/refresh-all?since=2026-06"), token, nil).Expect(http.StatusOK)

	days := []string{"2026-05-31", "2026-06-01", "2026-07-15", "2026-09-03", "2026-11-22", ""}
	// want adds up the journal's lines dated on or before day by account.
	want := func(day string) map[string]string {
		sums := map[string]int64{}
		for _, e := range journal(t, app, token, "") {
			if day != "" && e.Date > day {
				continue
			}
			for _, l := range e.Lines {
				sums[l.AccountCode] += cents(t, l.Debit) - cents(t, l.Credit)
			}
		}
		out := map[string]string{}
		for code := range chart(t, app, token, "") {
			out[code] = centsText(sums[code])
		}
		return out
	}
	check := func(when string) {
		t.Helper()
		for _, day := range days {
			q := ""
			if day != "" {
				q = "?as_of=" + day
			}
			got, w := balances(t, app, token, q), want(day)
			for code, v := range w {
				if got[code] != v {
					t.Errorf("%s, as of %q: account %s is %s, the lines add up to %s", when, day, code, got[code], v)
				}
			}
		}
	}
	compact := func() {
		t.Helper()
		if _, err := svc.Compact(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	check("deltas only")
	compact()
	check("totals only")
	// A payment dated back in July and a reversal dated today, after the
	// move: the days already in the totals get deltas beside them.
	pay := id(t, app.Post(f.path("/payments"), token, map[string]any{"amount": 2100, "paid_on": "2026-07-15", "method": "bank_transfer",
		"contract_id": f.contract}).Expect(http.StatusCreated))
	app.Post(f.path("/payments"), token, map[string]any{"amount": 700, "paid_on": "2026-09-03", "method": "cash",
		"contract_id": f.contract}).Expect(http.StatusCreated)
	check("totals and deltas")
	compact()
	app.Post(f.path("/payments/"+pay+"/reverse"), token, map[string]any{"reason": "Rücklastschrift"}).Expect(http.StatusOK)
	check("after a reversal")
	compact()
	compact() // nothing left to move
	check("all moved")
	var tb struct {
		Totals []balance `json:"totals"`
	}
	app.Get("/api/v1/reports/trial-balance", token).Expect(http.StatusOK).JSON(&tb)
	if len(tb.Totals) != 1 || tb.Totals[0].Balance.String() != "0.00" {
		t.Errorf("trial balance totals %+v", tb.Totals)
	}
}

func centsText(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}
