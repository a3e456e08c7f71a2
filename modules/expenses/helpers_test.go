package expenses_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type expense struct {
	ID         string  `json:"id"`
	PropertyID string  `json:"property_id"`
	Name       string  `json:"name"`
	Type       string  `json:"type"`
	Amount     any     `json:"amount"`
	Currency   string  `json:"currency"`
	IsActive   bool    `json:"is_active"`
	StartDate  string  `json:"start_date"`
	EndDate    *string `json:"end_date"`
	DueDay     int     `json:"due_day"`
	CreatedAt  string  `json:"created_at"`
	UpdatedAt  string  `json:"updated_at"`
}

type charge struct {
	ID         string  `json:"id"`
	PropertyID string  `json:"property_id"`
	ExpenseID  *string `json:"expense_id"`
	Name       string  `json:"name"`
	Amount     any     `json:"amount"`
	Currency   string  `json:"currency"`
	Period     string  `json:"period"`
	DueDate    string  `json:"due_date"`
	Status     string  `json:"status"`
	CreatedAt  string  `json:"created_at"`
}

type chargeList struct {
	Charges []charge `json:"charges"`
	Total   int      `json:"total"`
	Page    int      `json:"page"`
	PerPage int      `json:"per_page"`
}

type refreshResult struct {
	Created int `json:"created"`
	Skipped int `json:"skipped"`
	Errors  int `json:"errors"`
}

// fixture is a running app with a user who owns one property in Germany.
type fixture struct {
	app      *testkit.App
	user     accountstest.User
	property string
}

func start(t testing.TB, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	t.Cleanup(func() { checkChargesHaveTheirExpense(t, app) })
	u := accountstest.NewUser(t, app)
	return fixture{app: app, user: u, property: newProperty(t, app, u.Token)}
}

// checkChargesHaveTheirExpense holds what the foreign key from a charge to
// its expense held before it was dropped on PostgreSQL for speed
// (migration 20261123110300): every expense_id names an existing expense.
func checkChargesHaveTheirExpense(t testing.TB, app *testkit.App) {
	t.Helper()
	var n int
	err := app.DB.NewRaw(`SELECT COUNT(*) FROM charges c WHERE c.expense_id IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM expenses e WHERE e.id = c.expense_id)`).Scan(context.Background(), &n)
	if err != nil || n != 0 {
		t.Errorf("charges of no expense: %d (%v)", n, err)
	}
}

func newProperty(t testing.TB, app *testkit.App, token string) string {
	t.Helper()
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", token, map[string]any{"name": "Flat", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}

func (f fixture) expenses() string { return "/api/v1/properties/" + f.property + "/expenses" }
func (f fixture) charges() string  { return "/api/v1/properties/" + f.property + "/charges" }
func (f fixture) refresh() string  { return f.expenses() + "/refresh-all" }

func (f fixture) newExpense(t testing.TB, body map[string]any) expense {
	t.Helper()
	var e expense
	f.app.Post(f.expenses(), f.user.Token, body).Expect(http.StatusCreated).JSON(&e)
	return e
}

func (f fixture) refreshAll(t testing.TB) refreshResult {
	t.Helper()
	var r refreshResult
	f.app.Post(f.refresh(), f.user.Token, nil).Expect(http.StatusOK).JSON(&r)
	return r
}

func (f fixture) allCharges(t testing.TB, query string) chargeList {
	t.Helper()
	var l chargeList
	f.app.Get(f.charges()+"?per_page=200"+query, f.user.Token).Expect(http.StatusOK).JSON(&l)
	return l
}

func rows(t testing.TB, app *testkit.App, table string) int {
	t.Helper()
	n, err := app.DB.NewSelect().Table(table).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func ptr[T any](v T) *T { return &v }

// renewToken signs a new token at the clock's time, for tests that move the
// clock further than a token lives.
func (f *fixture) renewToken(t testing.TB) {
	t.Helper()
	token, err := f.app.Tokens.Issue(f.user.ID, 0, f.app.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	f.user.Token = token
}
