package ledger_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/ledger"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

// An existing database, filled by today's money routes without the
// ledger, is journaled by the ledger's migrations: right after the
// upgrade every invariant holds and the balances are the records'.
func TestHistoryIsJournaledOnUpgrade(t *testing.T) {
	var without []module.Entry
	for _, e := range modules.Catalog() {
		// Without the ledger, and without what reads it (the tax year).
		if e.Name != ledger.Name && !slices.Contains(e.Depends, ledger.Name) {
			without = append(without, e)
		}
	}
	app := testkit.Start(t, testkit.WithEntries(without))
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	token := newToken(t, app)
	f := lease(t, app, token, "DE", "de", "DE-H", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 1000},
		map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-08-01"}, map[string]any{"code": "DEPOSIT_AMOUNT", "value": 3000})
	app.Post(f.path("/expenses/refresh-all?since=2026-08"), token, nil).Expect(http.StatusOK)
	bounced := id(t, app.Post(f.path("/payments"), token, map[string]any{"amount": 500, "paid_on": "2026-11-01", "method": "bank_transfer",
		"contract_id": f.contract}).Expect(http.StatusCreated))
	app.Post(f.path("/payments/"+bounced+"/reverse"), token, map[string]any{"reason": "bounced"}).Expect(http.StatusOK)
	app.Post(f.path("/payments"), token, map[string]any{"amount": 5000, "paid_on": "2026-11-02", "method": "bank_transfer",
		"contract_id": f.contract}).Expect(http.StatusCreated)
	app.Post(f.path("/payments"), token, map[string]any{"amount": 120, "paid_on": "2026-11-03", "method": "cash"}).Expect(http.StatusCreated)
	app.Post(f.path("/charges"), token, map[string]any{"name": "Schlüssel", "amount": 80, "due_date": "2026-11-20"}).Expect(http.StatusCreated)
	cp := id(t, app.Post(f.path("/compensations"), token, map[string]any{"contract_id": f.contract, "kind": "rent_reduction", "amount": 99.99}).
		Expect(http.StatusCreated))
	app.Post(f.path("/compensations/"+cp+"/credit"), token, nil).Expect(http.StatusOK)
	app.Post("/api/v1/contracts/"+f.contract+"/terminate", token, map[string]any{"date": "2026-11-15", "reason": "Auszug"}).Expect(http.StatusOK)
	var st struct {
		CompensationID *string `json:"compensation_id"`
	}
	app.Post(f.path("/compensations/deposit-settlements"), token, map[string]any{"contract_id": f.contract,
		"deductions": []map[string]any{{"reason": "Reinigung", "amount": 150}}}).Expect(http.StatusCreated).JSON(&st)
	app.Post(f.path("/compensations/"+*st.CompensationID+"/pay-out"), token, map[string]any{"method": "bank_transfer", "reference": "R-1"}).
		Expect(http.StatusOK)

	var set []database.MigrationSet
	for _, e := range modules.Catalog() {
		if e.Name == ledger.Name {
			set = append(set, database.MigrationSet{Owner: e.Name, FS: e.Migrations, Go: e.GoMigrations})
		}
	}
	mg, err := database.NewMigrator(app.DB, set)
	if err != nil {
		t.Fatal(err)
	}
	applied, err := mg.Up(context.Background())
	// The journal, its history, the totals of the history's lines, the
	// bank accounts' sub-accounts and 6350 loan interest in the charts.
	if err != nil || len(applied) != 5 {
		t.Fatalf("ledger migrations: %v %v", applied, err)
	}
	paymentstest.CheckInvariants(t, app)

	var rows []struct {
		Code string `bun:"account_code"`
		V    int64  `bun:"v"`
	}
	if err := app.DB.NewRaw(`SELECT account_code, CAST(SUM(debit_minor - credit_minor) AS BIGINT) AS v FROM ledger_lines
		GROUP BY account_code ORDER BY account_code`).Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, r := range rows {
		got[r.Code] = r.V
	}
	// Four rents and the deposit; 5,000 paid on the contract (deposit,
	// August, September), 120 cash on the property's oldest charge
	// (October), 99.99 set off: 1,780.01 owed at the settlement, applied
	// from the deposit, 150 deducted, 1,069.99 refunded by transfer. The
	// key (80) is owed still; the bounced payment left nothing.
	want := map[string]int64{
		"1200": 8000,
		"1600": 12000,
		"1800": 500000 - 106999,
		"3500": 0,
		"3520": 0,
		"3530": 0,
		"4100": -400000,
		"4200": -8000 - 15000,
		"6800": 9999,
	}
	for code, w := range want {
		if got[code] != w {
			t.Errorf("account %s after the upgrade: %d, want %d (all: %v)", code, got[code], w, got)
		}
	}
}

// The database refuses, on its own, an entry whose lines do not balance,
// a line added to a written entry, and any change of the journal.
func TestTheDatabaseRefusesAnUnbalancedEntry(t *testing.T) {
	app := testkit.Start(t)
	ctx := context.Background()
	const entry = "0190b3c4-0000-7000-8000-000000000001"
	exec := func(q string) error { _, err := app.DB.ExecContext(ctx, q); return err }
	line := func(code string, d, c int) string {
		return `INSERT INTO ledger_lines (entry_id, workspace_id, entry_date, account_code, currency, debit_minor, credit_minor)
			VALUES ('` + entry + `', 1, '2026-11-01', '` + code + `', 'EUR', ` + itoa(d) + `, ` + itoa(c) + `)`
	}
	insertEntry := `INSERT INTO ledger_entries (id, workspace_id, entry_date, kind, source_table, source_id, memo, currency, total_minor, created_at)
		VALUES ('` + entry + `', 1, '2026-11-01', 'charge', 'charges', '` + entry + `', '', 'EUR', 1000, '2026-11-01 00:00:00')`
	for _, q := range []string{line("1200", 1000, 0), line("4100", 0, 999)} {
		if err := exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := exec(insertEntry); err == nil {
		t.Fatal("an entry of 10.00 debit and 9.99 credit was written")
	}
	if err := exec(line("4100", 0, 1)); err != nil {
		t.Fatal(err)
	}
	if err := exec(insertEntry); err != nil {
		t.Fatalf("a balanced entry was refused: %v", err)
	}
	for _, q := range []string{line("4100", 0, 5), "UPDATE ledger_lines SET debit_minor = 2000 WHERE debit_minor = 1000",
		"DELETE FROM ledger_entries", "UPDATE ledger_entries SET memo = 'x'", line("1200", 5, 5)} {
		if err := exec(q); err == nil {
			t.Errorf("the journal took %s", q)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
