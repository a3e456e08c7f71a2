package counters_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type counter struct {
	ID         string  `json:"id"`
	PropertyID string  `json:"property_id"`
	ContractID *string `json:"contract_id"`
	Kind       string  `json:"kind"`
	Unit       string  `json:"unit"`
	Serial     string  `json:"serial"`
	Name       string  `json:"name"`
	Tariff     any     `json:"tariff"`
	IsActive   bool    `json:"is_active"`
	CreatedAt  string  `json:"created_at"`
	UpdatedAt  string  `json:"updated_at"`
}

type reading struct {
	ID          string  `json:"id"`
	CounterID   string  `json:"counter_id"`
	ReadOn      string  `json:"read_on"`
	Value       any     `json:"value"`
	Consumption any     `json:"consumption"`
	ChargeID    *string `json:"charge_id"`
	CreatedAt   string  `json:"created_at"`
}

type readingList struct {
	Readings []reading `json:"readings"`
	Total    int       `json:"total"`
	Page     int       `json:"page"`
	PerPage  int       `json:"per_page"`
}

type charge struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Amount    any    `json:"amount"`
	Currency  string `json:"currency"`
	Period    string `json:"period"`
	DueDate   string `json:"due_date"`
	Status    string `json:"status"`
	ExpenseID any    `json:"expense_id"`
}

type chargeList struct {
	Charges []charge `json:"charges"`
	Total   int      `json:"total"`
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
	u := accountstest.NewUser(t, app)
	return fixture{app: app, user: u, property: newProperty(t, app, u.Token)}
}

// newContract adds a draft contract (with a new tenant) of the property
// and returns its id.
func newContract(t testing.TB, app *testkit.App, token, property, number string) string {
	t.Helper()
	var tenant, c struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/contragents", token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tenant " + number}).
		Expect(http.StatusCreated).JSON(&tenant)
	app.Post("/api/v1/contracts", token, map[string]any{"property_id": property, "tenant_id": tenant.ID, "number": number}).
		Expect(http.StatusCreated).JSON(&c)
	return c.ID
}

func newProperty(t testing.TB, app *testkit.App, token string) string {
	t.Helper()
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", token, map[string]any{"name": "Flat", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}

func (f fixture) counters() string { return "/api/v1/properties/" + f.property + "/counters" }
func (f fixture) charges() string  { return "/api/v1/properties/" + f.property + "/charges" }
func (f fixture) readings(counterID string) string {
	return f.counters() + "/" + counterID + "/readings"
}

func (f fixture) newCounter(t testing.TB, body map[string]any) counter {
	t.Helper()
	var c counter
	f.app.Post(f.counters(), f.user.Token, body).Expect(http.StatusCreated).JSON(&c)
	return c
}

func (f fixture) addReading(t testing.TB, counterID, readOn string, value any) reading {
	t.Helper()
	var r reading
	f.app.Post(f.readings(counterID), f.user.Token, map[string]any{"read_on": readOn, "value": value}).
		Expect(http.StatusCreated).JSON(&r)
	return r
}

func (f fixture) allCharges(t testing.TB) chargeList {
	t.Helper()
	var l chargeList
	f.app.Get(f.charges()+"?per_page=200", f.user.Token).Expect(http.StatusOK).JSON(&l)
	return l
}

func importCSV(f fixture, counterID, token, body string) *testkit.Response {
	return f.app.Do(testkit.Request{Method: http.MethodPost, Path: f.readings(counterID) + "/import", Token: token, Body: body,
		Headers: map[string]string{"Content-Type": "text/csv"}})
}

func rows(t testing.TB, app *testkit.App, table string) int {
	t.Helper()
	n, err := app.DB.NewSelect().Table(table).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// details are the details of a 400 validation_failed.
func details(t testing.TB, res *testkit.Response) []string {
	t.Helper()
	res.Expect(http.StatusBadRequest)
	var body struct {
		Error   string   `json:"error"`
		Details []string `json:"details"`
	}
	res.JSON(&body)
	if body.Error != "validation_failed" {
		t.Fatalf("error %q, want validation_failed", body.Error)
	}
	return body.Details
}
