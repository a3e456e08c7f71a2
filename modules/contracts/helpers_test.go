package contracts_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type term struct {
	Code  string `json:"code"`
	Value any    `json:"value"`
}

type contract struct {
	ID         string  `json:"id"`
	PropertyID string  `json:"property_id"`
	TenantID   string  `json:"tenant_id"`
	Number     string  `json:"number"`
	Status     string  `json:"status"`
	Locale     string  `json:"locale"`
	Terms      []term  `json:"terms"`
	StartDate  *string `json:"start_date"`
	EndDate    *string `json:"end_date"`
	Rent       any     `json:"rent"`
	NextRent   *struct {
		Amount float64 `json:"amount"`
		From   string  `json:"from"`
	} `json:"next_rent"`
	Currency          string  `json:"currency"`
	DueDay            int     `json:"due_day"`
	Deposit           any     `json:"deposit"`
	TerminatedOn      *string `json:"terminated_on"`
	TerminationReason *string `json:"termination_reason"`
	CreatedAt         string  `json:"created_at"`
	UpdatedAt         string  `json:"updated_at"`
}

type contractList struct {
	Contracts []contract `json:"contracts"`
	Total     int        `json:"total"`
}

type charge struct {
	ID         string  `json:"id"`
	ExpenseID  *string `json:"expense_id"`
	ContractID *string `json:"contract_id"`
	Name       string  `json:"name"`
	Amount     any     `json:"amount"`
	Period     string  `json:"period"`
	DueDate    string  `json:"due_date"`
}

type chargeList struct {
	Charges []charge `json:"charges"`
	Total   int      `json:"total"`
}

type expense struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Type       string  `json:"type"`
	Amount     any     `json:"amount"`
	StartDate  string  `json:"start_date"`
	EndDate    *string `json:"end_date"`
	DueDay     int     `json:"due_day"`
	ContractID *string `json:"contract_id"`
}

type expenseList struct {
	Expenses []expense `json:"expenses"`
	Total    int       `json:"total"`
}

type refreshResult struct {
	Created int `json:"created"`
	Skipped int `json:"skipped"`
	Errors  int `json:"errors"`
}

const base = "/api/v1/contracts"

// fixture is a running app with a user who owns a property in Germany and
// a tenant.
type fixture struct {
	app      *testkit.App
	user     accountstest.User
	property string
	tenant   string
}

func start(t testing.TB, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	u := accountstest.NewUser(t, app)
	return fixture{app: app, user: u, property: newProperty(t, app, u.Token, "DE"), tenant: newContragent(t, app, u.Token, "tenant")}
}

func newProperty(t testing.TB, app *testkit.App, token, country string) string {
	t.Helper()
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", token, map[string]any{"name": "Flat", "country_code": country}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}

func newContragent(t testing.TB, app *testkit.App, token, role string) string {
	t.Helper()
	var c struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/contragents", token, map[string]any{"kind": "person", "roles": []string{role}, "name": "Anna"}).
		Expect(http.StatusCreated).JSON(&c)
	return c.ID
}

func (f fixture) body(number string, terms ...term) map[string]any {
	if terms == nil {
		terms = []term{}
	}
	return map[string]any{"property_id": f.property, "tenant_id": f.tenant, "number": number, "terms": terms}
}

func (f fixture) create(t testing.TB, number string, terms ...term) contract {
	t.Helper()
	var c contract
	f.app.Post(base, f.user.Token, f.body(number, terms...)).Expect(http.StatusCreated).JSON(&c)
	return c
}

func (f fixture) charges(t testing.TB, query string) chargeList {
	t.Helper()
	var l chargeList
	f.app.Get("/api/v1/properties/"+f.property+"/charges"+query, f.user.Token).Expect(http.StatusOK).JSON(&l)
	return l
}

func (f fixture) refresh(t testing.TB) refreshResult {
	t.Helper()
	var r refreshResult
	f.app.Post("/api/v1/properties/"+f.property+"/expenses/refresh-all", f.user.Token, nil).Expect(http.StatusOK).JSON(&r)
	return r
}

// rentTerms are the terms of a usual contract from start, open-ended.
func rentTerms(start string) []term {
	return []term{{"MONTHLY_RENT_AMOUNT", 950}, {"CONTRACT_START_DATE", start}, {"PAYMENT_DAY_OF_MONTH", 3}}
}

// snapshot is every row of the tables a contract request may write.
func snapshot(t testing.TB, app *testkit.App) map[string][]map[string]any {
	t.Helper()
	out := map[string][]map[string]any{}
	for _, table := range []string{"contracts", "expenses", "charges", "contragents", "properties"} {
		var rows []map[string]any
		if err := app.DB.NewSelect().Table(table).Order("id").Scan(context.Background(), &rows); err != nil {
			t.Fatalf("snapshot %s: %v", table, err)
		}
		out[table] = rows
	}
	return out
}

func newUserFor(t testing.TB, f fixture, roles ...string) accountstest.User {
	return accountstest.NewUser(t, f.app, roles...)
}
