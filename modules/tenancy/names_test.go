package tenancy_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// A tenant reads the charges of a French contract in French in the
// portal, whatever their landlord's language.
func TestPortalChargesInTheContractsLanguage(t *testing.T) {
	app := testkit.Start(t)
	tenant := accountstest.NewUser(t, app)
	l := lease{landlord: accountstest.NewUser(t, app)}
	tok := l.landlord.Token
	app.Put("/api/v1/user/profile", tok, map[string]any{"locale": "de"}).Expect(http.StatusOK)
	l.property = created(t, app.Post("/api/v1/properties", tok, map[string]any{"name": "Appartement", "country_code": "FR"}))
	l.tenant = created(t, app.Post("/api/v1/contragents", tok, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Anne Locataire", "email": tenant.Email}))
	l.contract = created(t, app.Post("/api/v1/contracts", tok, map[string]any{"property_id": l.property, "tenant_id": l.tenant,
		"number": "B-7", "locale": "fr", "terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 800},
			{"code": "CONTRACT_START_DATE", "value": "2026-11-01"}, {"code": "PAYMENT_DAY_OF_MONTH", "value": 5},
			{"code": "DEPOSIT_AMOUNT", "value": 800}}}))
	app.Post("/api/v1/contracts/"+l.contract+"/activate", tok, nil).Expect(http.StatusOK)
	app.Post("/api/v1/properties/"+l.property+"/expenses/refresh-all", tok, nil).Expect(http.StatusOK)
	accept(app, l.invite(t, app, tenant.Email), tenant.Token).Expect(http.StatusOK)

	var list struct {
		Charges []struct {
			Name     string `json:"name"`
			NameKind string `json:"name_kind"`
		} `json:"charges"`
	}
	app.Get("/api/v1/tenancy/contracts/"+l.contract+"/charges", tenant.Token).Expect(http.StatusOK).JSON(&list)
	got := map[string]string{}
	for _, c := range list.Charges {
		got[c.NameKind] = c.Name
	}
	if got["rent"] != "Loyer, contrat B-7" || got["deposit"] != "Dépôt de garantie" {
		t.Errorf("the tenant reads %v", got)
	}
	// The landlord reads the same charges in German.
	app.Get("/api/v1/properties/"+l.property+"/charges", tok).Expect(http.StatusOK).JSON(&list)
	for _, c := range list.Charges {
		if c.NameKind == "rent" && c.Name != "Miete, Vertrag B-7" {
			t.Errorf("the landlord reads %q", c.Name)
		}
	}
}

// The portal invitation's link is absolute under http.publicurl.
func TestPortalInviteLinkUnderPublicURL(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("http.publicurl", "https://propman.example.com"))
	l := newLease(t, app, "anna@example.com")
	l.invite(t, app, "anna@example.com")
	m, _ := app.Mail.Last("anna@example.com")
	if !strings.Contains(m.Text, "https://propman.example.com/tenancy/accept?token=") {
		t.Fatalf("the mail's link is not under http.publicurl:\n%s", m.Text)
	}
}
