package properties_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// With the expenses module switched off, nobody answers the deletion hook;
// the schema still keeps money records: expenses go with the property,
// charges refuse the deletion with 409 has_dependents (never a 500).
func TestDeleteWithoutTheExpensesModuleRelyOnTheSchema(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("modules.expenses.enabled", false), testkit.WithConfig("modules.contracts.enabled", false), testkit.WithConfig("modules.counters.enabled", false), testkit.WithConfig("modules.payments.enabled", false), testkit.WithConfig("modules.receipts.enabled", false),
		testkit.WithConfig("modules.printforms.enabled", false), testkit.WithConfig("modules.penalties.enabled", false),
		testkit.WithConfig("modules.tenancy.enabled", false), testkit.WithConfig("modules.messages.enabled", false), testkit.WithConfig("modules.notices.enabled", false),
		testkit.WithConfig("modules.assets.enabled", false), testkit.WithConfig("modules.violations.enabled", false),
		testkit.WithConfig("modules.compensations.enabled", false),
		testkit.WithConfig("modules.calendar.enabled", false),
		testkit.WithConfig("modules.proposals.enabled", false), testkit.WithConfig("modules.negotiations.enabled", false),
		testkit.WithConfig("modules.ledger.enabled", false), testkit.WithConfig("modules.banking.enabled", false),
		testkit.WithConfig("modules.repairs.enabled", false), testkit.WithConfig("modules.buildings.enabled", false),
		testkit.WithConfig("modules.opcosts.enabled", false), testkit.WithConfig("modules.taxyear.enabled", false),
		testkit.WithConfig("modules.dashboard.enabled", false))
	u := accountstest.NewUser(t, app)
	create := func() string {
		var p property
		app.Post("/api/v1/properties", u.Token, map[string]any{"name": "A", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
		return p.ID
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := app.DB.NewRaw(q, args...).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	withExpense, withCharge := create(), create()
	app.Get("/api/v1/properties/"+withExpense+"/expenses", u.Token).Expect(http.StatusNotFound)
	const expense = "019a0000-0000-7000-8000-0000000000e1"
	exec(`INSERT INTO expenses (id, property_id, name, type, amount_minor, currency, is_active, start_date, due_day, created_at, updated_at)
		VALUES (?, ?, 'Rent', 'MONTHLY', 100, 'EUR', TRUE, '2026-01-01', 1, ?, ?)`, expense, withExpense, app.Clock.Now(), app.Clock.Now())
	exec(`INSERT INTO charges (id, property_id, origin, name, amount_minor, currency, period, due_date, status, created_at)
		VALUES ('019a0000-0000-7000-8000-0000000000c1', ?, '019a0000-0000-7000-8000-0000000000c1', 'Fee', 100, 'EUR', '2026-11', '2026-11-01', 'unpaid', ?)`,
		withCharge, app.Clock.Now())

	app.Delete("/api/v1/properties/"+withExpense, u.Token).Expect(http.StatusNoContent)
	n, err := app.DB.NewSelect().Table("expenses").Count(context.Background())
	if err != nil || n != 0 {
		t.Fatalf("%d expenses left (%v)", n, err)
	}
	res := app.Delete("/api/v1/properties/"+withCharge, u.Token).Expect(http.StatusConflict)
	if res.Map()["error"] != "has_dependents" {
		t.Fatalf("409 body %s", res.String())
	}
	if n := count(t, app); n != 1 {
		t.Fatalf("%d properties, want the one with a charge", n)
	}
}
