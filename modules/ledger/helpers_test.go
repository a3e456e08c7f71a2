package ledger_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
)

func id(t testing.TB, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}

type tenancy struct {
	app      *testkit.App
	token    string
	property string
	contract string
}

func (f tenancy) path(s string) string { return "/api/v1/properties/" + f.property + s }

func start(t testing.TB, opts ...testkit.Option) (*testkit.App, string) {
	t.Helper()
	app := testkit.Start(t, opts...)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	return app, accountstest.NewUser(t, app).Token
}

// lease makes a property in country, a tenant and an active contract with
// the terms.
func lease(t testing.TB, app *testkit.App, token, country, locale, number string, terms ...map[string]any) tenancy {
	t.Helper()
	f := tenancy{app: app, token: token}
	f.property = id(t, app.Post("/api/v1/properties", token, map[string]any{"name": "Wohnung " + number, "country_code": country}).Expect(http.StatusCreated))
	f.contract = f.newContract(t, country, locale, number, terms...)
	return f
}

// newContract adds an active contract of a new tenant to f's property.
func (f tenancy) newContract(t testing.TB, country, locale, number string, terms ...map[string]any) string {
	t.Helper()
	tenant := id(t, f.app.Post("/api/v1/contragents", f.token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tenant " + number}).Expect(http.StatusCreated))
	c := id(t, f.app.Post("/api/v1/contracts", f.token, map[string]any{"property_id": f.property, "tenant_id": tenant, "number": number,
		"locale": locale, "terms": terms}).Expect(http.StatusCreated))
	f.app.Post("/api/v1/contracts/"+c+"/activate", f.token, nil).Expect(http.StatusOK)
	return c
}

type balance struct {
	Currency string      `json:"currency"`
	Debit    json.Number `json:"debit"`
	Credit   json.Number `json:"credit"`
	Balance  json.Number `json:"balance"`
}

type account struct {
	ID       string    `json:"id"`
	Code     string    `json:"code"`
	Role     string    `json:"role"`
	Type     string    `json:"type"`
	Name     string    `json:"name"`
	Balances []balance `json:"balances"`
}

// chart reads the chart and returns it by code.
func chart(t testing.TB, app *testkit.App, token, query string) map[string]account {
	t.Helper()
	var out struct {
		Accounts []account `json:"accounts"`
	}
	app.Get("/api/v1/ledger/accounts"+query, token).Expect(http.StatusOK).JSON(&out)
	m := map[string]account{}
	for _, a := range out.Accounts {
		m[a.Code] = a
	}
	return m
}

// balances is each account's balance (EUR), "0.00" when it has no lines.
func balances(t testing.TB, app *testkit.App, token, query string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for code, a := range chart(t, app, token, query) {
		out[code] = "0.00"
		for _, b := range a.Balances {
			out[code] = b.Balance.String()
		}
	}
	return out
}

// expectBalances checks the balances of the codes given (code, balance
// pairs); every other account must be at 0.
func expectBalances(t testing.TB, app *testkit.App, token string, pairs ...string) {
	t.Helper()
	got := balances(t, app, token, "")
	want := map[string]string{}
	for i := 0; i < len(pairs); i += 2 {
		want[pairs[i]] = pairs[i+1]
	}
	for code, b := range got {
		w, ok := want[code]
		if !ok {
			w = "0.00"
		}
		if b != w {
			t.Errorf("account %s: balance %s, want %s", code, b, w)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

type line struct {
	AccountCode string      `json:"account_code"`
	AccountRole string      `json:"account_role"`
	ContractID  *string     `json:"contract_id"`
	Debit       json.Number `json:"debit"`
	Credit      json.Number `json:"credit"`
}

type entry struct {
	ID          string      `json:"id"`
	Date        string      `json:"date"`
	Kind        string      `json:"kind"`
	SourceTable string      `json:"source_table"`
	Memo        string      `json:"memo"`
	Total       json.Number `json:"total"`
	Lines       []line      `json:"lines"`
}

// journal reads the whole journal under query (filters), following next.
func journal(t testing.TB, app *testkit.App, token, query string) []entry {
	t.Helper()
	var all []entry
	next := ""
	for {
		url := "/api/v1/ledger/journal?per_page=200" + query
		if next != "" {
			url += "&after=" + next
		}
		var page struct {
			Entries []entry `json:"entries"`
			Next    *string `json:"next"`
		}
		app.Get(url, token).Expect(http.StatusOK).JSON(&page)
		all = append(all, page.Entries...)
		if page.Next == nil {
			return all
		}
		next = *page.Next
	}
}

// cents reads a JSON amount as cents.
func cents(t testing.TB, n json.Number) int64 {
	t.Helper()
	var units, frac int64
	if _, err := fmt.Sscanf(n.String(), "%d.%02d", &units, &frac); err != nil {
		t.Fatalf("amount %q: %v", n, err)
	}
	if units < 0 || n.String()[0] == '-' {
		return units*100 - frac
	}
	return units*100 + frac
}

func newToken(t testing.TB, app *testkit.App) string {
	t.Helper()
	return accountstest.NewUser(t, app).Token
}
