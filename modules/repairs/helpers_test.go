package repairs_test

import (
	"net/http"
	"regexp"
	"slices"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// lease is a landlord's flat let under a signed contract in locale, its
// tenant linked to the portal, and a service provider with an address.
type lease struct {
	landlord accountstest.User
	tenant   accountstest.User
	property string
	contract string
	provider string
	email    string // the provider's
}

// start is the app with tokens that outlive the clock's moves.
func start(t *testing.T, opts ...testkit.Option) *testkit.App {
	return testkit.Start(t, append([]testkit.Option{testkit.WithConfig("auth.ttl", "2000h"), testkit.WithConfig("auth.maxage", "2000h")}, opts...)...)
}

func created(t *testing.T, res *testkit.Response) string {
	t.Helper()
	res.Expect(http.StatusCreated)
	return res.Map()["id"].(string)
}

var inviteToken = regexp.MustCompile(`token=([A-Za-z0-9_-]{43})`)

func newLease(t *testing.T, app *testkit.App, locale, providerEmail string) lease {
	t.Helper()
	return newLeaseIn(t, app, "DE", locale, providerEmail)
}

// newLeaseIn is newLease of a property in country, the contract's terms
// with the extra ones given (code, value pairs).
func newLeaseIn(t *testing.T, app *testkit.App, country, locale, providerEmail string, extra ...any) lease {
	t.Helper()
	l := lease{landlord: accountstest.NewUser(t, app), tenant: accountstest.NewUser(t, app), email: providerEmail}
	tok := l.landlord.Token
	l.property = created(t, app.Post("/api/v1/properties", tok, map[string]any{"name": "Flat 3", "country_code": country,
		"address": "Lindenstraße 5", "postal_code": "10115", "city": "Berlin"}))
	terms := []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950},
		{"code": "CONTRACT_START_DATE", "value": "2026-11-01"}, {"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}
	for i := 0; i+1 < len(extra); i += 2 {
		code := extra[i].(string)
		if j := slices.IndexFunc(terms, func(m map[string]any) bool { return m["code"] == code }); j >= 0 {
			terms[j]["value"] = extra[i+1]
			continue
		}
		terms = append(terms, map[string]any{"code": code, "value": extra[i+1]})
	}
	cg := created(t, app.Post("/api/v1/contragents", tok, map[string]any{"kind": "person", "roles": []string{"tenant"},
		"name": "Anna Tenant", "email": l.tenant.Email}))
	l.contract = created(t, app.Post("/api/v1/contracts", tok, map[string]any{"property_id": l.property, "tenant_id": cg,
		"number": "L-1", "locale": locale, "terms": terms}))
	app.Post("/api/v1/contracts/"+l.contract+"/activate", tok, nil).Expect(http.StatusOK)
	app.Post("/api/v1/contragents/"+cg+"/portal-invitation", tok, nil).Expect(http.StatusCreated)
	m, ok := app.Mail.Last(l.tenant.Email)
	if !ok {
		t.Fatal("no portal invitation")
	}
	app.Post("/api/v1/tenancy/invitations/"+inviteToken.FindStringSubmatch(m.Text)[1]+"/accept", l.tenant.Token, nil).Expect(http.StatusOK)
	l.provider = created(t, app.Post("/api/v1/contragents", tok, map[string]any{"kind": "company", "roles": []string{"provider"},
		"name": "Klempnerei Wasser GmbH", "email": providerEmail}))
	return l
}

func (l lease) tenantPath() string {
	return "/api/v1/tenancy/contracts/" + l.contract + "/repair-requests"
}

func (l lease) memberPath() string { return "/api/v1/properties/" + l.property + "/repair-requests" }

type message struct {
	Subject string  `json:"subject"`
	Body    string  `json:"body"`
	Channel *string `json:"channel"`
}

// thread is the contract's messages, oldest first (the list is newest
// first).
func (l lease) thread(t *testing.T, app *testkit.App) []message {
	t.Helper()
	var page struct {
		Messages []message `json:"messages"`
	}
	app.Get("/api/v1/properties/"+l.property+"/messages?contract_id="+l.contract+"&per_page=200", l.landlord.Token).
		Expect(http.StatusOK).JSON(&page)
	slices.Reverse(page.Messages)
	return page.Messages
}

var orderToken = regexp.MustCompile(`/work-orders/([A-Za-z0-9_-]{43})`)

// order sends the request to the provider and returns the token of the
// provider's mail.
func (l lease) order(t *testing.T, app *testkit.App, id string) string {
	t.Helper()
	app.Post(l.memberPath()+"/"+id+"/work-orders", l.landlord.Token, map[string]any{"provider_id": l.provider}).Expect(http.StatusCreated)
	m, ok := app.Mail.Last(l.email)
	if !ok {
		t.Fatalf("no work order mail to %s", l.email)
	}
	got := orderToken.FindStringSubmatch(m.Text)
	if got == nil {
		t.Fatalf("no link in the work order mail: %s", m.Text)
	}
	return got[1]
}

func code(res *testkit.Response) string { s, _ := res.Map()["error"].(string); return s }
