package payments_test

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
	PaidAmount  json.Number `json:"paid_amount"`
	Outstanding json.Number `json:"outstanding"`
	Status      string      `json:"status"`
	Period      string      `json:"period"`
	DueDate     string      `json:"due_date"`
	ContractID  *string     `json:"contract_id"`
}

type chargeList struct {
	Charges []charge `json:"charges"`
	Total   int      `json:"total"`
}

type allocation struct {
	ChargeID string      `json:"charge_id"`
	Amount   json.Number `json:"amount"`
}

type payment struct {
	ID          string       `json:"id"`
	Amount      json.Number  `json:"amount"`
	Status      string       `json:"status"`
	Allocations []allocation `json:"allocations"`
	Unallocated json.Number  `json:"unallocated"`
	ContractID  *string      `json:"contract_id"`
	PaidOn      string       `json:"paid_on"`
}

type balance struct {
	Currency    string      `json:"currency"`
	Charged     json.Number `json:"charged"`
	Paid        json.Number `json:"paid"`
	Outstanding json.Number `json:"outstanding"`
	Overdue     json.Number `json:"overdue"`
	Credit      json.Number `json:"credit"`
	AsOf        string      `json:"as_of"`
}

// fixture is a running app with a user who owns a property in Germany.
type fixture struct {
	app      *testkit.App
	user     accountstest.User
	property string
}

func start(t testing.TB, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	u := accountstest.NewUser(t, app)
	f := fixture{app: app, user: u, property: newProperty(t, app, u.Token)}
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	return f
}

func newProperty(t testing.TB, app *testkit.App, token string) string {
	t.Helper()
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", token, map[string]any{"name": "Flat", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}

func (f fixture) url(rest string) string { return "/api/v1/properties/" + f.property + rest }

// manual adds an unpaid manual charge due on due and returns it.
func (f fixture) manual(t testing.TB, name string, amount any, due string) charge {
	t.Helper()
	var c charge
	f.app.Post(f.url("/charges"), f.user.Token, map[string]any{"name": name, "amount": amount, "due_date": due}).
		Expect(http.StatusCreated).JSON(&c)
	return c
}

func (f fixture) pay(t testing.TB, body map[string]any) payment {
	t.Helper()
	var p payment
	f.app.Post(f.url("/payments"), f.user.Token, body).Expect(http.StatusCreated).JSON(&p)
	return p
}

func (f fixture) charge(t testing.TB, id string) charge {
	t.Helper()
	var l chargeList
	f.app.Get(f.url("/charges?per_page=200"), f.user.Token).Expect(http.StatusOK).JSON(&l)
	for _, c := range l.Charges {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("charge %s not listed", id)
	return charge{}
}

func (f fixture) balance(t testing.TB, query string) balance {
	t.Helper()
	var b balance
	f.app.Get(f.url("/balance"+query), f.user.Token).Expect(http.StatusOK).JSON(&b)
	return b
}

// orderOf is a total order of a table's rows for snapshots.
func orderOf(table string) string {
	if table == "payment_allocations" {
		return "payment_id, charge_id"
	}
	return "id"
}
