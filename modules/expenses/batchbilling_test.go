package expenses_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/jobs/jobstest"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/testkit"
)

// portfolio is a landlord with properties seeded by seedPortfolio.
type portfolio struct {
	token string
	ws    int64
	props []string
}

func propertyIn(t *testing.T, app *testkit.App, token, name, country string) string {
	t.Helper()
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", token, map[string]any{"name": name, "country_code": country, "currency": "EUR"}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}

func addExpense(t *testing.T, app *testkit.App, token, prop string, body map[string]any) {
	t.Helper()
	app.Post("/api/v1/properties/"+prop+"/expenses", token, body).Expect(http.StatusCreated)
}

// seedPortfolio gives a new landlord the billing's edge cases (the clock
// stands on 2026-11-22): a rent starting in the middle of a month, one
// ending in the middle of one, an indexation (the old rent ends, the new
// one starts the next day), a switched-off expense, an expense billed
// already this month (the catch-up starts after it, never before), credit
// waiting for the first charges, an expense not started yet, an archived
// property, German and French properties, monthly, quarterly and yearly
// expenses.
func seedPortfolio(t *testing.T, app *testkit.App) portfolio {
	t.Helper()
	u := accountstest.NewUser(t, app)
	p := portfolio{token: u.Token, ws: jobstest.Workspace(t, app, u.Token)}
	add := func(name, country string) string {
		id := propertyIn(t, app, u.Token, name, country)
		p.props = append(p.props, id)
		return id
	}
	berlin := add("Berlin, Torstraße 1", "DE")
	addExpense(t, app, u.Token, berlin, map[string]any{"name": "Miete", "type": "MONTHLY", "amount": 500, "start_date": "2026-09-15", "due_day": 3})
	addExpense(t, app, u.Token, berlin, map[string]any{"name": "Utility prepayment", "type": "MONTHLY", "amount": 120, "start_date": "2026-01-01"})

	lyon := add("Lyon, rue Mercière 4", "FR")
	addExpense(t, app, u.Token, lyon, map[string]any{"name": "Loyer", "type": "MONTHLY", "amount": 700, "start_date": "2026-01-01", "end_date": "2026-10-20", "due_day": 5})
	addExpense(t, app, u.Token, lyon, map[string]any{"name": "Taxe d'enlèvement des ordures ménagères", "type": "YEARLY", "amount": 300, "start_date": "2025-01-01"})

	indexed := add("Köln, Ringstraße 9", "DE")
	addExpense(t, app, u.Token, indexed, map[string]any{"name": "Miete", "type": "MONTHLY", "amount": 600, "start_date": "2025-06-01", "end_date": "2026-07-31"})
	addExpense(t, app, u.Token, indexed, map[string]any{"name": "Miete (Indexmiete)", "type": "MONTHLY", "amount": 630, "start_date": "2026-08-01"})

	off := add("Paris, rue Oberkampf 12", "FR")
	addExpense(t, app, u.Token, off, map[string]any{"name": "Charges", "type": "MONTHLY", "amount": 50, "start_date": "2026-01-01", "is_active": false})
	addExpense(t, app, u.Token, off, map[string]any{"name": "Taxe", "type": "QUARTERLY", "amount": 90, "start_date": "2026-01-01"})

	billed := add("Hamburg, Elbchaussee 3", "DE")
	addExpense(t, app, u.Token, billed, map[string]any{"name": "Miete", "type": "MONTHLY", "amount": 400, "start_date": "2026-01-01"})
	app.Post("/api/v1/properties/"+billed+"/expenses/refresh-all", u.Token, nil).Expect(http.StatusOK)

	credit := add("Bordeaux, cours Victor Hugo 7", "FR")
	app.Post("/api/v1/properties/"+credit+"/payments", u.Token, map[string]any{"amount": 250, "method": "bank_transfer", "paid_on": "2026-09-30"}).Expect(http.StatusCreated)
	addExpense(t, app, u.Token, credit, map[string]any{"name": "Loyer", "type": "MONTHLY", "amount": 200, "start_date": "2026-10-01"})

	later := add("München, Leopoldstraße 2", "DE")
	addExpense(t, app, u.Token, later, map[string]any{"name": "Miete", "type": "MONTHLY", "amount": 900, "start_date": "2027-01-01"})

	archived := add("Nantes, quai de la Fosse 1", "FR")
	addExpense(t, app, u.Token, archived, map[string]any{"name": "Loyer", "type": "MONTHLY", "amount": 800, "start_date": "2026-01-01"})
	app.Post("/api/v1/properties/"+archived+"/archive", u.Token, nil).Expect(http.StatusOK)
	return p
}

// chargesOf lists every charge of the landlord's properties as text, one
// line per charge, the properties by their place in p.props.
func chargesOf(t *testing.T, app *testkit.App, p portfolio) []string {
	t.Helper()
	var rows []struct {
		PropertyID string `bun:"property_id"`
		Name       string `bun:"name"`
		Amount     int64  `bun:"amount_minor"`
		Paid       int64  `bun:"paid_amount_minor"`
		Period     string `bun:"period"`
		Due        string `bun:"due_date"`
		Status     string `bun:"status"`
		Kind       string `bun:"kind"`
	}
	err := app.DB.NewRaw(`SELECT CAST(property_id AS TEXT) AS property_id, name, amount_minor, paid_amount_minor, period,
		CAST(due_date AS TEXT) AS due_date, status, kind FROM charges WHERE property_id IN (?)`, bun.In(p.props)).Scan(context.Background(), &rows)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%d %s %d/%d %s %s %s %s", slices.Index(p.props, r.PropertyID), r.Name, r.Paid, r.Amount, r.Period, r.Due[:10], r.Status, r.Kind))
	}
	slices.Sort(out)
	return out
}

// journalOf lists the journal's charge entries of the workspace as text.
func journalOf(t *testing.T, app *testkit.App, p portfolio) []string {
	t.Helper()
	var rows []struct {
		PropertyID string `bun:"property_id"`
		Account    string `bun:"account_code"`
		Debit      int64  `bun:"debit_minor"`
		Credit     int64  `bun:"credit_minor"`
		Date       string `bun:"date"`
		Kind       string `bun:"kind"`
	}
	err := app.DB.NewRaw(`SELECT CAST(l.property_id AS TEXT) AS property_id, l.account_code, l.debit_minor, l.credit_minor,
		CAST(e.entry_date AS TEXT) AS date, e.kind FROM ledger_lines l JOIN ledger_entries e ON e.id = l.entry_id
		WHERE e.workspace_id = ?`, p.ws).Scan(context.Background(), &rows)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%d %s %s %d/%d %s", slices.Index(p.props, r.PropertyID), r.Kind, r.Account, r.Debit, r.Credit, r.Date[:10]))
	}
	slices.Sort(out)
	return out
}

// The batched run makes exactly the charges, paid amounts and journal
// entries that billing property by property (Bill, the run before the
// batches) makes, on two landlords seeded alike; with batches of two
// properties and transactions of three charges, so that batches and
// transactions are cut everywhere.
func TestBatchedBillingEqualsPropertyByProperty(t *testing.T) {
	t.Parallel()
	var svc *expenses.Service
	var props *properties.Service
	app := testkit.Start(t, testkit.WithPopulate(&svc, &props))
	ctx := context.Background()
	today := period.DateOf(app.Clock.Now())
	loop, batched := seedPortfolio(t, app), seedPortfolio(t, app)
	if before := chargesOf(t, app, loop); len(before) != 1 {
		t.Fatalf("seeded charges %v", before)
	}

	var old expenses.RefreshResult
	err := props.EachActive(ctx, loop.ws, func(p *properties.Property) error {
		r, err := svc.Bill(ctx, p, today)
		old.Created, old.Skipped, old.Errors = old.Created+r.Created, old.Skipped+r.Skipped, old.Errors+r.Errors
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	expenses.SetBillingBatches(svc, 2, 3, nil)
	res, err := svc.BillWorkspace(ctx, props, batched.ws, today)
	if err != nil {
		t.Fatal(err)
	}
	// Berlin 3 + 11, Lyon 10 + 2, Köln 14 + 4, Paris 4 quarters,
	// Bordeaux 2; Hamburg has November already.
	const want = 3 + 11 + 10 + 2 + 14 + 4 + 4 + 2
	if res.Created != want || res.Properties != 7 || res.Errors != 0 || len(res.Problems) != 0 {
		t.Fatalf("batched run %+v; want %d charges of 7 properties", res, want)
	}
	if old.Created != res.Created || old.Skipped != res.Skipped || old.Errors != res.Errors {
		t.Fatalf("property by property %+v, batched %+v", old, res)
	}
	a, b := chargesOf(t, app, loop), chargesOf(t, app, batched)
	if !slices.Equal(a, b) {
		t.Fatalf("charges differ:\nproperty by property\n%s\nbatched\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	for _, line := range []string{
		"0 Miete 0/50000 2026-09 2026-09-03 unpaid regular", "0 Miete 0/50000 2026-11 2026-11-03 unpaid regular",
		"1 Loyer 0/70000 2026-10 2026-10-05 unpaid regular", "1 Taxe d'enlèvement des ordures ménagères 0/30000 2025 2025-01-01 unpaid regular",
		"2 Miete 0/60000 2026-07 2026-07-01 unpaid regular", "2 Miete (Indexmiete) 0/63000 2026-08 2026-08-01 unpaid regular",
		"3 Taxe 0/9000 2026-Q4 2026-10-01 unpaid regular",
		"5 Loyer 20000/20000 2026-10 2026-10-01 paid regular", "5 Loyer 5000/20000 2026-11 2026-11-01 unpaid regular",
	} {
		if !slices.Contains(b, line) {
			t.Errorf("no charge %q in\n%s", line, strings.Join(b, "\n"))
		}
	}
	for _, c := range b {
		if strings.HasPrefix(c, "1 Loyer") && strings.Contains(c, "2026-11") || strings.HasPrefix(c, "3 Charges") ||
			strings.HasPrefix(c, "4 Miete 0/40000 2026-10") || strings.HasPrefix(c, "6 ") || strings.HasPrefix(c, "7 ") {
			t.Errorf("charge %q should not exist", c)
		}
	}
	ja, jb := journalOf(t, app, loop), journalOf(t, app, batched)
	if !slices.Equal(ja, jb) || len(jb) == 0 {
		t.Fatalf("journals differ:\nproperty by property\n%s\nbatched\n%s", strings.Join(ja, "\n"), strings.Join(jb, "\n"))
	}
	// Again: nothing new, every expense skipped.
	again, err := svc.BillWorkspace(ctx, props, batched.ws, today)
	if err != nil || again.Created != 0 || again.Properties != 7 {
		t.Fatalf("second run %+v, %v", again, err)
	}
	if !slices.Equal(b, chargesOf(t, app, batched)) {
		t.Fatal("a second run changed the charges")
	}
	paymentstest.CheckInvariants(t, app)
}

// A run that stops between two transactions (a crash, a cancelled
// context) keeps what it committed, and the next run makes the rest:
// every charge and its journal entry exactly once.
func TestBillingResumesAfterAStopBetweenBatches(t *testing.T) {
	t.Parallel()
	var svc *expenses.Service
	var props *properties.Service
	app := testkit.Start(t, testkit.WithPopulate(&svc, &props))
	ctx := context.Background()
	today := period.DateOf(app.Clock.Now())
	u := accountstest.NewUser(t, app)
	p := portfolio{token: u.Token, ws: jobstest.Workspace(t, app, u.Token)}
	for i := range 9 {
		id := propertyIn(t, app, u.Token, fmt.Sprintf("Unit %d", i+1), []string{"DE", "FR"}[i%2])
		p.props = append(p.props, id)
		addExpense(t, app, u.Token, id, map[string]any{"name": "Rent", "type": "MONTHLY", "amount": 100 + i, "start_date": "2026-01-01"})
	}
	// 11 charges a property (January to November): transactions of two
	// properties, batches of four.
	const total = 9 * 11
	crash := errors.New("injected crash")
	var parts atomic.Int32
	expenses.SetBillingBatches(svc, 4, 22, func() error {
		if parts.Add(1) == 2 {
			return crash
		}
		return nil
	})
	if _, err := svc.BillWorkspace(ctx, props, p.ws, today); !errors.Is(err, crash) {
		t.Fatalf("run with a crash after the second transaction: %v", err)
	}
	if got := len(chargesOf(t, app, p)); got != 4*11 {
		t.Fatalf("%d charges after the crash; want the first two transactions' %d", got, 4*11)
	}
	// The next attempt is cancelled after its first transaction.
	cctx, cancel := context.WithCancel(ctx)
	parts.Store(0)
	expenses.SetBillingBatches(svc, 4, 22, func() error {
		if parts.Add(1) == 1 {
			cancel()
		}
		return nil
	})
	if _, err := svc.BillWorkspace(cctx, props, p.ws, today); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	afterCancel := len(chargesOf(t, app, p))
	if afterCancel <= 4*11 || afterCancel >= total {
		t.Fatalf("%d charges after the cancelled run; want more than %d, fewer than %d", afterCancel, 4*11, total)
	}
	expenses.SetBillingBatches(svc, 4, 22, nil)
	res, err := svc.BillWorkspace(ctx, props, p.ws, today)
	if err != nil || res.Created != total-afterCancel || res.Properties != 9 {
		t.Fatalf("resumed run %+v, %v; want %d charges", res, err, total-afterCancel)
	}
	got := chargesOf(t, app, p)
	if len(got) != total || len(slices.Compact(slices.Clone(got))) != total {
		t.Fatalf("%d charges, %d distinct; want %d", len(got), len(slices.Compact(slices.Clone(got))), total)
	}
	var entries, charged int
	if err := app.DB.NewRaw(`SELECT COUNT(*) FROM ledger_entries WHERE workspace_id = ? AND kind = 'charge'`, p.ws).Scan(ctx, &entries); err != nil {
		t.Fatal(err)
	}
	if err := app.DB.NewRaw(`SELECT COUNT(DISTINCT source_id) FROM ledger_entries WHERE workspace_id = ? AND kind = 'charge'`, p.ws).Scan(ctx, &charged); err != nil {
		t.Fatal(err)
	}
	if entries != total || charged != total {
		t.Fatalf("journal: %d charge entries of %d charges; want %d", entries, charged, total)
	}
	paymentstest.CheckInvariants(t, app)
}
