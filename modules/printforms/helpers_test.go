package printforms_test

import (
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/testkit"
)

// The PDF readers of pdftext_test.go (package printforms).
var (
	requirePoppler = printforms.RequirePoppler
	pdfText        = printforms.PDFText
	pdfPages       = printforms.PDFPages
)

type term struct {
	Code  string `json:"code"`
	Value any    `json:"value"`
}

// fixture is a running app with a user who owns a property in Germany, a
// tenant with every detail, and a contract of them.
type fixture struct {
	app      *testkit.App
	user     accountstest.User
	property string
	tenant   string
	contract string
	number   string
}

// tenantName is in Cyrillic, so every locale's form must draw Cyrillic.
const tenantName = "Олена Коваленко-Schmidt"

// fullTerms covers every data type: money, int, bool, date, text, and
// blocks of the property's country. The one float block, the late fee, is
// not among them: German law allows no fixed late fee, so a German lease
// leaves it out (TestContractFormLateFee prints it on a Spanish lease).
var fullTerms = []term{
	{"MONTHLY_RENT_AMOUNT", 1234.5},
	{"CONTRACT_START_DATE", "2026-12-01"},
	{"CONTRACT_END_DATE", "2027-11-23"},
	{"PAYMENT_DAY_OF_MONTH", 3},
	{"DEPOSIT_AMOUNT", 2469},
	{"DE_STATUTORY_INTEREST", true},
	{"NOTICE_PERIOD_DAYS", 1090},
	{"PETS_ALLOWED", true},
	{"SMOKING_ALLOWED", false},
	{"SPECIAL_CONDITIONS", "The tenant waters the plants on the balcony."},
	{"DE_BETRIEBSKOSTEN_VORAUSZAHLUNG", 180},
}

func start(t testing.TB, opts ...testkit.Option) fixture {
	t.Helper()
	app := testkit.Start(t, opts...)
	u := accountstest.NewUser(t, app)
	f := fixture{app: app, user: u, number: "2026/001"}
	var p struct {
		ID string `json:"id"`
	}
	app.Post("/api/v1/properties", u.Token, map[string]any{
		"name": "Flat 3B", "address": "Hauptstraße 5", "city": "Berlin", "postal_code": "10115", "country_code": "DE",
	}).Expect(http.StatusCreated).JSON(&p)
	f.property = p.ID
	app.Post("/api/v1/contragents", u.Token, map[string]any{
		"kind": "person", "roles": []string{"tenant"}, "name": tenantName, "email": "olena@example.com",
		"phone": "+4915112345678", "address": "Lindenweg 7, 10117 Berlin", "tax_id": "DE123456789",
	}).Expect(http.StatusCreated).JSON(&p)
	f.tenant = p.ID
	f.contract = f.newContract(t, u.Token, f.number, "en", fullTerms)
	return f
}

func (f fixture) newContract(t testing.TB, token, number, locale string, terms []term) string {
	t.Helper()
	var c struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/contracts", token, map[string]any{
		"property_id": f.property, "tenant_id": f.tenant, "number": number, "locale": locale, "terms": terms,
	}).Expect(http.StatusCreated).JSON(&c)
	return c.ID
}

func formPath(id string) string { return "/api/v1/print-forms/contracts/" + id }

// print gets the contract's form with an optional query and headers.
func (f fixture) print(id, query, token string, headers map[string]string) *testkit.Response {
	path := formPath(id)
	if query != "" {
		path += "?" + query
	}
	return f.app.Do(testkit.Request{Method: http.MethodGet, Path: path, Token: token, Headers: headers})
}

// dictionary is the locale's translations as GET /translations serves them.
func dictionary(t testing.TB, app *testkit.App, token, locale string) map[string]string {
	t.Helper()
	var d struct {
		Translations map[string]string `json:"translations"`
	}
	app.Get("/api/v1/translations/"+locale, token).Expect(http.StatusOK).JSON(&d)
	return d.Translations
}

// blockDescription is the agreement block's description (our guidance to
// the landlord) in locale as the API serves it.
func blockDescription(t testing.TB, app *testkit.App, code, locale string) string {
	t.Helper()
	var b struct {
		Description map[string]string `json:"description"`
	}
	app.Get("/api/v1/agreement-blocks/"+code, "").Expect(http.StatusOK).JSON(&b)
	if b.Description[locale] == "" {
		t.Fatalf("block %s has no %s description", code, locale)
	}
	return b.Description[locale]
}
