package printforms_test

import (
	"net/http"
	"strings"
	"testing"
)

// A French lease runs three years for a natural-person landlord and six
// for a company (loi 89-462 art. 10, platform/law), printed with its end
// date, and states the living area (art. 3); German and English leases
// print the area when it is given.
func TestFrenchLeaseTermByLandlordAndLivingArea(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	var p struct{ ID string }
	f.app.Post("/api/v1/properties", f.user.Token, map[string]any{"name": "Appartement 3", "address": "5 avenue Foch",
		"postal_code": "69006", "city": "Lyon", "country_code": "FR", "living_area": 42.5}).Expect(http.StatusCreated).JSON(&p)
	f.property = p.ID
	id := f.newContract(t, f.user.Token, "2026/009", "fr", []term{
		{"MONTHLY_RENT_AMOUNT", 800}, {"CONTRACT_START_DATE", "2026-10-01"}, {"PAYMENT_DAY_OF_MONTH", 5},
	})
	text := func(query string) string {
		t.Helper()
		return strings.Join(strings.Fields(pdfText(t, f.print(id, query, f.user.Token, nil).Expect(http.StatusOK).Body, "-layout")), " ")
	}
	has := func(label, text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q:\n%s", label, w, text)
			}
		}
	}
	person := text("")
	has("natural person", person, "Durée du bail 36 mois (loi n° 89-462, art. 10), jusqu'au 30/09/2029", "Date de fin 30/09/2029",
		"Surface habitable 42,5 m²", "Article 1")
	if strings.Contains(person, "72 mois") {
		t.Errorf("a natural person's lease runs six years:\n%s", person)
	}

	var profile struct {
		LandlordType string `json:"landlord_type"`
	}
	f.app.Get("/api/v1/user/profile", f.user.Token).Expect(http.StatusOK).JSON(&profile)
	if profile.LandlordType != "natural_person" {
		t.Errorf("default landlord_type %q", profile.LandlordType)
	}
	// The form's version holds the records' updated_at: a change needs
	// the clock to move.
	f.app.Clock.Advance(1e9)
	f.app.Put("/api/v1/user/profile", f.user.Token, map[string]any{"landlord_type": "SARL"}).Expect(http.StatusBadRequest)
	f.app.Put("/api/v1/user/profile", f.user.Token, map[string]any{"landlord_type": "Company"}).Expect(http.StatusOK).JSON(&profile)
	if profile.LandlordType != "company" {
		t.Fatalf("landlord_type %q after setting company", profile.LandlordType)
	}
	company := text("")
	has("company", company, "Durée du bail 72 mois (loi n° 89-462, art. 10), jusqu'au 30/09/2032", "Date de fin 30/09/2032",
		"Surface habitable 42,5 m²")
	has("company, German", text("locale=de"), "Mietdauer 72 Monate (loi n° 89-462, art. 10), bis 30.09.2032", "Wohnfläche 42,5 m²")
	has("company, English", text("locale=en"), "Term of the lease 72 months (loi n° 89-462, art. 10), until 2032-09-30", "Living area 42.5 m²")

	// Elsewhere the law fixes no term: a German lease stays open-ended,
	// with its area when given and none when not.
	f.property = f.fixtureProperty(t, 60)
	de := f.newContract(t, f.user.Token, "2026/010", "de", []term{{"MONTHLY_RENT_AMOUNT", 700}, {"CONTRACT_START_DATE", "2026-10-01"}})
	german := strings.Join(strings.Fields(pdfText(t, f.print(de, "", f.user.Token, nil).Expect(http.StatusOK).Body)), " ")
	has("German lease", german, "Wohnfläche 60 m²", "Mietende Unbefristet")
	if strings.Contains(german, "Mietdauer") {
		t.Errorf("a German lease states a fixed term:\n%s", german)
	}
	f.app.Clock.Advance(1e9)
	f.app.Put("/api/v1/properties/"+f.property, f.user.Token, map[string]any{"living_area": nil}).Expect(http.StatusOK)
	if german = pdfText(t, f.print(de, "", f.user.Token, nil).Expect(http.StatusOK).Body); strings.Contains(german, "Wohnfläche") {
		t.Errorf("the area is printed after it was removed:\n%s", german)
	}
}

// fixtureProperty adds a German property of area m².
func (f fixture) fixtureProperty(t *testing.T, area float64) string {
	t.Helper()
	var p struct{ ID string }
	f.app.Post("/api/v1/properties", f.user.Token, map[string]any{"name": "Wohnung 2", "address": "Ringstr. 7",
		"postal_code": "20095", "city": "Hamburg", "country_code": "DE", "living_area": area}).Expect(http.StatusCreated).JSON(&p)
	return p.ID
}
