package paymentstest

import (
	"context"
	"fmt"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// checkLedger checks the ledger's rules (LANDLORD-CORE section 2) when the
// ledger module is on: every entry balances and no line is without its
// entry; each contract's receivable (account 1200) is what its charges
// still owe; the deposits held (3500) per contract are the deposit
// charges less what settlements applied, deducted and made refundable;
// the tenant credit (3520) per property is the payments' unallocated
// money; the bills payable (3600) per property are its unpaid bills;
// and every workspace's debits equal its credits. The expected
// figures are computed here from the money tables, apart from the ledger.
func checkLedger(t testing.TB, app *testkit.App) {
	t.Helper()
	ctx := context.Background()
	var n int
	// The ledger module is off (its tables may still be there: nothing
	// books into them then).
	if len(app.RoutesUnder("/api/v1/ledger")) == 0 {
		return
	}
	if err := app.DB.NewRaw(`SELECT COUNT(*) FROM ledger_entries`).Scan(ctx, &n); err != nil {
		return
	}
	var bad []map[string]any
	err := app.DB.NewRaw(`SELECT e.id, e.total_minor, s.d, s.c, s.n FROM ledger_entries e LEFT JOIN (
			SELECT entry_id, SUM(debit_minor) AS d, SUM(credit_minor) AS c, COUNT(*) AS n FROM ledger_lines GROUP BY entry_id) s
			ON s.entry_id = e.id
		WHERE s.n IS NULL OR s.n < 2 OR s.d <> s.c OR s.d <> e.total_minor`).Scan(ctx, &bad)
	if err != nil {
		t.Fatalf("ledger invariants: %v", err)
	}
	for _, r := range bad {
		t.Errorf("ledger entry %v does not balance: total %v, debit %v, credit %v, %v lines", r["id"], r["total_minor"], r["d"], r["c"], r["n"])
	}
	if err := app.DB.NewRaw(`SELECT COUNT(*) FROM ledger_lines l WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.id = l.entry_id)`).Scan(ctx, &n); err != nil || n != 0 {
		t.Errorf("ledger lines without an entry: %d (%v)", n, err)
	}
	compare(t, ctx, app, "receivable",
		`SELECT property_id, contract_id, SUM(debit_minor - credit_minor) AS v FROM ledger_lines WHERE account_code = '1200' GROUP BY property_id, contract_id`,
		`SELECT property_id, contract_id, SUM(amount_minor - paid_amount_minor) AS v FROM charges WHERE status <> 'cancelled' GROUP BY property_id, contract_id`)
	compare(t, ctx, app, "tenant credit",
		`SELECT property_id, NULL AS contract_id, SUM(credit_minor - debit_minor) AS v FROM ledger_lines WHERE account_code = '3520' GROUP BY property_id`,
		`SELECT property_id, NULL AS contract_id, SUM(unallocated_minor) AS v FROM payments WHERE status = 'posted' GROUP BY property_id`)
	deposits := `SELECT property_id, contract_id, SUM(amount_minor) AS v FROM charges
		WHERE status <> 'cancelled' AND kind = 'regular' AND expense_id IS NULL AND name = 'Deposit' GROUP BY property_id, contract_id`
	var settlements int
	if app.DB.NewRaw(`SELECT COUNT(*) FROM deposit_settlements`).Scan(ctx, &settlements) == nil {
		// What a settlement added to the deposit (its interest) and took
		// from it: the part applied to
		// what was owed (while its set-off stands), the deductions, and
		// the refund (unless its compensation was cancelled).
		deposits = `SELECT property_id, contract_id, SUM(v) AS v FROM (
			SELECT property_id, contract_id, amount_minor AS v FROM charges
				WHERE status <> 'cancelled' AND kind = 'regular' AND expense_id IS NULL AND name = 'Deposit'
			UNION ALL SELECT s.property_id, s.contract_id, s.interest_minor - s.deductions_minor FROM deposit_settlements s
			UNION ALL SELECT s.property_id, s.contract_id, -p.amount_minor FROM deposit_settlements s
				JOIN payments p ON p.id = s.applied_payment_id WHERE p.status = 'posted'
			UNION ALL SELECT s.property_id, s.contract_id, -c.amount_minor FROM deposit_settlements s
				JOIN compensations c ON c.id = s.compensation_id WHERE c.status <> 'cancelled') x
			GROUP BY property_id, contract_id`
	}
	compare(t, ctx, app, "deposits held",
		`SELECT property_id, contract_id, SUM(credit_minor - debit_minor) AS v FROM ledger_lines WHERE account_code = '3500' GROUP BY property_id, contract_id`,
		deposits)
	var bills int
	if app.DB.NewRaw(`SELECT COUNT(*) FROM bills`).Scan(ctx, &bills) == nil {
		// The bills module is on: what the ledger owes suppliers is what
		// the bills not paid yet come to, property by property.
		compare(t, ctx, app, "bills payable",
			`SELECT property_id, NULL AS contract_id, SUM(credit_minor - debit_minor) AS v FROM ledger_lines WHERE account_code = '3600' GROUP BY property_id`,
			`SELECT property_id, NULL AS contract_id, SUM(amount_minor) AS v FROM bills WHERE paid_on IS NULL GROUP BY property_id`)
	}
	var sums []map[string]any
	if err := app.DB.NewRaw(`SELECT workspace_id, currency, SUM(debit_minor) AS d, SUM(credit_minor) AS c FROM ledger_lines
		GROUP BY workspace_id, currency`).Scan(ctx, &sums); err != nil {
		t.Fatalf("ledger invariants: %v", err)
	}
	for _, r := range sums {
		if toInt(r["d"]) != toInt(r["c"]) {
			t.Errorf("workspace %v %v: debits %v, credits %v", r["workspace_id"], r["currency"], r["d"], r["c"])
		}
	}
}

// compare checks that two queries of (property_id, contract_id, v) agree,
// a missing row counting as 0.
func compare(t testing.TB, ctx context.Context, app *testkit.App, what, ledger, records string) {
	t.Helper()
	read := func(q string) map[string]int64 {
		var rows []map[string]any
		if err := app.DB.NewRaw(q).Scan(ctx, &rows); err != nil {
			t.Fatalf("ledger invariants, %s: %v", what, err)
		}
		out := map[string]int64{}
		for _, r := range rows {
			if v := toInt(r["v"]); v != 0 {
				out[fmt.Sprint(text(r["property_id"]), "/", text(r["contract_id"]))] = v
			}
		}
		return out
	}
	got, want := read(ledger), read(records)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s of %s: ledger %d, records %d", what, k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s of %s: ledger %d, records 0", what, k, v)
		}
	}
}

// text is an id as both engines return it.
func text(v any) string {
	switch s := v.(type) {
	case nil:
		return ""
	case []byte:
		return string(s)
	}
	return fmt.Sprint(v)
}
