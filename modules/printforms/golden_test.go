package printforms_test

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit/golden"
)

// TestGoldenContracts keeps the text of a lease as each country's tenant
// reads it in their language: a German Indexmietvertrag-free lease of a
// Berlin flat with every kind of clause, a French bail of a Lyon flat and
// an English tenancy agreement of a Manchester flat, the landlord and the
// tenant with their addresses. A change to any word of a lease shows up
// as a diff of testdata/golden to review (rewrite with -update).
func TestGoldenContracts(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	f.app.Put("/api/v1/user/profile", f.user.Token, map[string]any{"name": "Lena Vermieter",
		"postal_address": map[string]any{"address": "Am Markt 1", "postal_code": "50667", "city": "Köln", "country_code": "DE"}}).Expect(http.StatusOK)
	f.app.Post("/api/v1/bank-accounts", f.user.Token, map[string]any{"holder": "Lena Vermieter", "iban": "DE89 3704 0044 0532 0130 00",
		"bic": "COBADEFFXXX", "bank_name": "Commerzbank"}).Expect(http.StatusCreated)
	property := func(name, address, postal, city, country string) string {
		var p struct{ ID string }
		f.app.Post("/api/v1/properties", f.user.Token, map[string]any{"name": name, "address": address,
			"postal_code": postal, "city": city, "country_code": country}).Expect(http.StatusCreated).JSON(&p)
		return p.ID
	}
	tenant := func(name, address string) string {
		var p struct{ ID string }
		f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"},
			"name": name, "email": "tenant@example.com", "address": address}).Expect(http.StatusCreated).JSON(&p)
		return p.ID
	}
	files := map[string]string{}
	for _, tc := range []struct {
		locale, number string
		property       string
		tenant         string
		terms          []term
	}{
		{"de", "2026/010", f.property, tenant("Anna Schmidt", "Lindenweg 7\n10117 Berlin"), fullTerms},
		{"fr", "2026/011", property("Appartement 3", "5 avenue Foch", "69006", "Lyon", "FR"), tenant("Claire Martin", "8 rue Mercière\n69002 Lyon"), []term{
			{"MONTHLY_RENT_AMOUNT", 800}, {"CONTRACT_START_DATE", "2026-10-01"}, {"PAYMENT_DAY_OF_MONTH", 5},
			{"DEPOSIT_AMOUNT", 800}, {"PETS_ALLOWED", false}, {"SPECIAL_CONDITIONS", "Le locataire entretient le jardin."}}},
		{"en", "2026/012", property("Flat 2", "5 Mill Lane", "M1 2AB", "Manchester", "GB"), tenant("Emma Brown", "14 King Street\nM2 4LQ Manchester"), []term{
			{"MONTHLY_RENT_AMOUNT", 950}, {"CONTRACT_START_DATE", "2026-12-01"}, {"CONTRACT_END_DATE", "2027-11-30"},
			{"PAYMENT_DAY_OF_MONTH", 1}, {"DEPOSIT_AMOUNT", 1096.15}, {"PETS_ALLOWED", true}}},
	} {
		var c struct{ ID string }
		f.app.Post("/api/v1/contracts", f.user.Token, map[string]any{"property_id": tc.property, "tenant_id": tc.tenant,
			"number": tc.number, "locale": tc.locale, "terms": tc.terms}).Expect(http.StatusCreated).JSON(&c)
		files["contract."+tc.locale+".pdf.txt"] = mailtest.PDFText(t, f.print(c.ID, "", f.user.Token, nil).Expect(http.StatusOK).Body)
	}
	golden.Dir(t, filepath.Join("testdata", "golden"), files)
}
