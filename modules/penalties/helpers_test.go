package penalties_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

type charge struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	Amount      json.Number `json:"amount"`
	Currency    string      `json:"currency"`
	Period      string      `json:"period"`
	DueDate     string      `json:"due_date"`
	Status      string      `json:"status"`
	PaidAmount  json.Number `json:"paid_amount"`
	Outstanding json.Number `json:"outstanding"`
	Kind        string      `json:"kind"`
	PenaltyFor  *string     `json:"penalty_for"`
	ContractID  *string     `json:"contract_id"`
}

type chargeList struct {
	Charges []charge `json:"charges"`
	Total   int      `json:"total"`
}

type penaltyList struct {
	Penalties []charge `json:"penalties"`
	Total     int      `json:"total"`
	Page      int      `json:"page"`
	PerPage   int      `json:"per_page"`
}

type result struct {
	Created int `json:"created"`
	Skipped int `json:"skipped"`
	Errors  int `json:"errors"`
}

// fixture is a running app (clock 2026-11-22) with a user who owns one
// property in Spain (EUR).
type fixture struct {
	app      *testkit.App
	user     accountstest.User
	property string
}

func start(t testing.TB, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	return fixture{app: app, user: u, property: newProperty(t, app, u.Token)}
}

// newProperty adds a property in Spain, a country whose agreement blocks
// do not forbid a fixed late fee.
func newProperty(t testing.TB, app *testkit.App, token string) string {
	t.Helper()
	return newPropertyIn(t, app, token, "ES")
}

func newPropertyIn(t testing.TB, app *testkit.App, token, country string) string {
	t.Helper()
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", token, map[string]any{"name": "Flat", "country_code": country}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}

// inCountry is the fixture with a new property of the same user in country.
func (f fixture) inCountry(t testing.TB, country string) fixture {
	t.Helper()
	f.property = newPropertyIn(t, f.app, f.user.Token, country)
	return f
}

func (f fixture) path(rest string) string { return "/api/v1/properties/" + f.property + rest }

// onProperty is the fixture with another property of the same user.
func (f fixture) onProperty(t testing.TB) fixture {
	t.Helper()
	f.property = newProperty(t, f.app, f.user.Token)
	return f
}

// activeContract creates and activates a contract of the property with a
// new tenant, the rent and start date, and the late fee when lateFee is
// not nil, and more terms; it returns the contract's id.
func (f fixture) activeContract(t testing.TB, number string, rent any, startDate string, lateFee any, more ...map[string]any) string {
	t.Helper()
	var tenant, c struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tenant " + number}).
		Expect(http.StatusCreated).JSON(&tenant)
	terms := []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": rent}, {"code": "CONTRACT_START_DATE", "value": startDate}}
	if lateFee != nil {
		terms = append(terms, map[string]any{"code": "LATE_FEE_PERCENTAGE", "value": lateFee})
	}
	terms = append(terms, more...)
	f.app.Post("/api/v1/contracts", f.user.Token, map[string]any{"property_id": f.property, "tenant_id": tenant.ID, "number": number, "terms": terms}).
		Expect(http.StatusCreated).JSON(&c)
	f.app.Post("/api/v1/contracts/"+c.ID+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	return c.ID
}

// catchUp bills every month since 2026-09.
func (f fixture) catchUp(t testing.TB) {
	t.Helper()
	f.app.Post(f.path("/expenses/refresh-all?since=2026-09"), f.user.Token, nil).Expect(http.StatusOK)
}

func (f fixture) refresh(t testing.TB) result {
	t.Helper()
	var r result
	f.app.Post(f.path("/penalties/refresh"), f.user.Token, nil).Expect(http.StatusOK).JSON(&r)
	return r
}

func (f fixture) penalties(t testing.TB, query string) penaltyList {
	t.Helper()
	var l penaltyList
	f.app.Get(f.path("/penalties"+query), f.user.Token).Expect(http.StatusOK).JSON(&l)
	return l
}

func (f fixture) charges(t testing.TB, query string) []charge {
	t.Helper()
	var l chargeList
	f.app.Get(f.path("/charges?per_page=200"+query), f.user.Token).Expect(http.StatusOK).JSON(&l)
	return l.Charges
}

// chargeOf returns the contract's charge of the period.
func (f fixture) chargeOf(t testing.TB, contractID, period string) charge {
	t.Helper()
	for _, c := range f.charges(t, "&kind=regular&contract_id="+contractID) {
		if c.Period == period {
			return c
		}
	}
	t.Fatalf("contract %s has no charge of %s", contractID, period)
	return charge{}
}

// pay posts a payment of amount allocated to the charge.
func (f fixture) pay(t testing.TB, chargeID, amount string) {
	t.Helper()
	f.app.Post(f.path("/payments"), f.user.Token, map[string]any{
		"amount": json.Number(amount), "method": "bank_transfer",
		"allocations": []map[string]any{{"charge_id": chargeID, "amount": json.Number(amount)}},
	}).Expect(http.StatusCreated)
}
