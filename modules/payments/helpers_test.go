package payments_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
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
	t.Cleanup(func() { checkInvariants(t, app) })
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

// checkInvariants checks the money rules of RENTAL-CORE over the whole
// database: every charge's paid_amount is the sum of its live allocations
// and within 0..amount, its stored status agrees, and per property the
// posted payments equal their live allocations plus their credit.
func checkInvariants(t testing.TB, app *testkit.App) {
	t.Helper()
	ctx := context.Background()
	var bad []map[string]any
	err := app.DB.NewRaw(`SELECT c.id, c.amount_minor, c.paid_amount_minor, c.status,
			COALESCE((SELECT SUM(a.amount_minor) FROM payment_allocations a JOIN payments p ON p.id = a.payment_id
				WHERE a.charge_id = c.id AND a.voided_at IS NULL AND p.status = 'posted'), 0) AS allocated
		FROM charges c`).Scan(ctx, &bad)
	if err != nil {
		t.Fatalf("invariants: %v", err)
	}
	for _, r := range bad {
		amount, paid, allocated := toInt(r["amount_minor"]), toInt(r["paid_amount_minor"]), toInt(r["allocated"])
		status := fmt.Sprint(r["status"])
		switch {
		case paid != allocated:
			t.Errorf("charge %v: paid_amount %d, allocations %d", r["id"], paid, allocated)
		case paid < 0 || paid > amount:
			t.Errorf("charge %v: paid_amount %d outside 0..%d", r["id"], paid, amount)
		case status == "paid" && paid != amount, status == "unpaid" && paid == amount, status == "cancelled" && paid != 0:
			t.Errorf("charge %v: status %s with paid %d of %d", r["id"], status, paid, amount)
		}
	}
	var props []map[string]any
	err = app.DB.NewRaw(`SELECT p.property_id,
			SUM(p.amount_minor) AS posted,
			SUM(p.unallocated_minor) AS credit,
			COALESCE(SUM((SELECT SUM(a.amount_minor) FROM payment_allocations a WHERE a.payment_id = p.id AND a.voided_at IS NULL)), 0) AS allocated
		FROM payments p WHERE p.status = 'posted' GROUP BY p.property_id`).Scan(ctx, &props)
	if err != nil {
		t.Fatalf("invariants: %v", err)
	}
	for _, r := range props {
		if toInt(r["posted"]) != toInt(r["allocated"])+toInt(r["credit"]) {
			t.Errorf("property %v: posted %v != allocated %v + credit %v", r["property_id"], r["posted"], r["allocated"], r["credit"])
		}
	}
	var leftovers int
	err = app.DB.NewRaw(`SELECT COUNT(*) FROM payments p WHERE p.status = 'reversed' AND (p.unallocated_minor <> 0 OR EXISTS
		(SELECT 1 FROM payment_allocations a WHERE a.payment_id = p.id AND a.voided_at IS NULL))`).Scan(ctx, &leftovers)
	if err != nil || leftovers != 0 {
		t.Errorf("reversed payments with credit or live allocations: %d (%v)", leftovers, err)
	}
}

func toInt(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int32:
		return int64(n)
	case float64:
		return int64(n)
	case []byte:
		var x int64
		fmt.Sscan(string(n), &x)
		return x
	case string:
		var x int64
		fmt.Sscan(n, &x)
		return x
	}
	panic(fmt.Sprintf("toInt %T", v))
}
