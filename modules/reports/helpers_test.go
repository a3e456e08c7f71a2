package reports_test

import (
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

const base = "/api/v1/reports"

// unit is one generated property and what the test made on it.
type unit struct {
	ID       string
	Name     string
	Currency string
	Contract string
	Number   string
	Tenant   string
	Rent     float64
	Deposit  float64
}

// portfolio is a landlord with generated units.
type portfolio struct {
	app   *testkit.App
	user  accountstest.User
	units []unit
}

type balance struct {
	Charged     float64 `json:"charged"`
	Paid        float64 `json:"paid"`
	Outstanding float64 `json:"outstanding"`
	Overdue     float64 `json:"overdue"`
	Credit      float64 `json:"credit"`
	Currency    string  `json:"currency"`
}

type charge struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Amount     float64 `json:"amount"`
	PaidAmount float64 `json:"paid_amount"`
	Status     string  `json:"status"`
	DueDate    string  `json:"due_date"`
	ContractID *string `json:"contract_id"`
	ExpenseID  *string `json:"expense_id"`
}

// generate makes n units for a new landlord from seed: most with an
// active contract of 2026 (rent, some with a deposit, a few with an end),
// charges of every month since the start, manual charges at random due
// dates, a cancelled one, and payments of random amounts; one unit in
// another currency, one without a contract.
func generate(t *testing.T, app *testkit.App, n int, seed int64) portfolio {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	p := portfolio{app: app, user: accountstest.NewUser(t, app)}
	tok := p.user.Token
	for i := 0; i < n; i++ {
		country := "DE"
		if i == 1 {
			country = "GB"
		}
		name := fmt.Sprintf("Unit %02d", i)
		if i == 2 {
			name = "=HYPERLINK(\"http://x\")"
		}
		var prop struct {
			ID       string `json:"id"`
			Currency string `json:"currency"`
		}
		app.Post("/api/v1/properties", tok, map[string]any{"name": name, "country_code": country, "city": "@Berlin"}).
			Expect(http.StatusCreated).JSON(&prop)
		u := unit{ID: prop.ID, Name: name, Currency: prop.Currency}
		if i != 3 {
			var tenant struct {
				ID string `json:"id"`
			}
			tname := fmt.Sprintf("Tenant %d", i)
			if i == 4 {
				tname = "-Minus +Plus"
			}
			app.Post("/api/v1/contragents", tok, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": tname}).
				Expect(http.StatusCreated).JSON(&tenant)
			u.Tenant, u.Number = tname, fmt.Sprintf("C-%02d", i)
			u.Rent = float64(500+rng.Intn(1000)) + float64(rng.Intn(100))/100
			startMonth := 1 + rng.Intn(6)
			terms := []map[string]any{
				{"code": "MONTHLY_RENT_AMOUNT", "value": u.Rent},
				{"code": "CONTRACT_START_DATE", "value": fmt.Sprintf("2026-%02d-01", startMonth)},
				{"code": "PAYMENT_DAY_OF_MONTH", "value": 1 + rng.Intn(20)},
			}
			if rng.Intn(2) == 0 {
				u.Deposit = 2 * u.Rent
				terms = append(terms, map[string]any{"code": "DEPOSIT_AMOUNT", "value": u.Deposit})
			}
			var c struct {
				ID string `json:"id"`
			}
			app.Post("/api/v1/contracts", tok, map[string]any{"property_id": u.ID, "tenant_id": tenant.ID, "number": u.Number, "terms": terms}).
				Expect(http.StatusCreated).JSON(&c)
			app.Post("/api/v1/contracts/"+c.ID+"/activate", tok, nil).Expect(http.StatusOK)
			u.Contract = c.ID
			app.Post("/api/v1/properties/"+u.ID+"/expenses/refresh-all?since=2026-01", tok, nil).Expect(http.StatusOK)
		}
		for k := rng.Intn(4); k > 0; k-- {
			due := fmt.Sprintf("2026-%02d-%02d", 1+rng.Intn(12), 1+rng.Intn(28))
			app.Post("/api/v1/properties/"+u.ID+"/charges", tok, map[string]any{"name": "Repair " + due, "amount": 10 + rng.Intn(300), "due_date": due}).
				Expect(http.StatusCreated)
		}
		for k := 1 + rng.Intn(5); k > 0; k-- {
			body := map[string]any{"amount": float64(50+rng.Intn(1500)) + 0.25, "paid_on": fmt.Sprintf("2026-%02d-%02d", 1+rng.Intn(10), 1+rng.Intn(28)),
				"method": "bank_transfer"}
			if u.Contract != "" {
				body["contract_id"] = u.Contract
			}
			app.Post("/api/v1/properties/"+u.ID+"/payments", tok, body).Expect(http.StatusCreated)
		}
		p.units = append(p.units, u)
	}
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	return p
}

func (p portfolio) balance(t *testing.T, u unit, asOf string) balance {
	t.Helper()
	var b balance
	p.app.Get("/api/v1/properties/"+u.ID+"/balance?as_of="+asOf, p.user.Token).Expect(http.StatusOK).JSON(&b)
	return b
}

func (p portfolio) charges(t *testing.T, u unit) []charge {
	t.Helper()
	var out []charge
	after := ""
	for {
		var l struct {
			Charges []charge `json:"charges"`
			Next    *string  `json:"next"`
		}
		p.app.Get("/api/v1/properties/"+u.ID+"/charges?per_page=200"+after, p.user.Token).Expect(http.StatusOK).JSON(&l)
		out = append(out, l.Charges...)
		if l.Next == nil {
			return out
		}
		after = "&after=" + *l.Next
	}
}

// cents turns a JSON amount into integer cents.
func cents(f float64) int64 {
	if f < 0 {
		return -int64(-f*100 + 0.5)
	}
	return int64(f*100 + 0.5)
}

// pythonReader is a python3 with openpyxl (.ci/needs/reports.sh installs
// it). Outside CI, without it, only the Go readers read the files.
func pythonReader(t *testing.T) (string, bool) {
	t.Helper()
	py := requires.OptionalPython(t, "apt-get install python3-openpyxl", "openpyxl")
	return py, py != ""
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func timeParse(s string) (time.Time, error) { return time.Parse(time.DateOnly, s) }

func init() {
	// The validator reads the reports' files as strings.
	for _, ct := range []string{"image/svg+xml", "application/pdf", "text/calendar", "text/csv",
		"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"} {
		openapi3filter.RegisterBodyDecoder(ct, func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef,
			_ openapi3filter.EncodingFn) (any, error) {
			b, err := io.ReadAll(body)
			return string(b), err
		})
	}
}
