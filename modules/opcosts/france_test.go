package opcosts_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit/golden"
)

// The French letter: the charges by nature (décret n° 87-713 headings),
// each with its key, and the mention of article 23 of the loi n° 89-462
// (receipts at the tenant's disposal for six months). A worked example
// constructed for this test, figures by hand: Résidence Les Tilleuls,
// Lyon, 2025; lot 1 65 m² and 600 tantièmes, lot 2 45 m² and 400
// tantièmes, empty all year (the landlord bears its part). L-1 rents lot
// 1 all year with 250.00 of provisions a month, all paid (3,000.00).
//   - I. Ascenseurs: 600.00 × 600/1000 = 360.00
//   - II. Eau et chauffage: chauffage 2,200.00 × 65/110 = 1,300.00; eau
//     550.00 × 65/110 = 325.00; together 1,625.00
//   - IV. Parties communes: entretien 900.00 × 600/1000 = 540.00
//   - V. Espaces extérieurs: 300.00 × 600/1000 = 180.00
//   - VI. Hygiène: ordures ménagères 240.00 / 2 lots = 120.00
//   - VIII. Impositions: 330.00 × 65/110 = 195.00
//
// In all 3,020.00, less 3,000.00 of provisions: 20.00 due.
func TestFrenchLetterByNatureOfCharges(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	w.building = id(t, app.Post("/api/v1/buildings", token, map[string]any{"name": "Résidence Les Tilleuls", "address": "12 rue des Lilas",
		"postal_code": "69003", "city": "Lyon", "country_code": "FR"}).Expect(http.StatusCreated))
	lot1, lot2 := w.unit(t, "Lot 1", 65), w.unit(t, "Lot 2", 45)
	app.Put(w.path("/units/"+lot1), token, map[string]any{"share": 600}).Expect(http.StatusOK)
	app.Put(w.path("/units/"+lot2), token, map[string]any{"share": 400}).Expect(http.StatusOK)
	l1 := w.lease(t, lot1, "L-1", "fr", "Léa Dubois", "2025-01-01", "", 250)
	w.pay(t, lot1, l1, 12*750)
	for _, b := range []struct {
		cat    string
		amount float64
	}{{"elevator", 600}, {"heating", 2200}, {"water", 550}, {"cleaning", 900}, {"garden", 300}, {"waste", 240}, {"property_tax", 330}} {
		w.bill(t, lot1, b.cat, "2025-09-30", b.amount)
	}
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"elevator": "share", "cleaning": "share", "garden": "share",
		"waste": "units"}}).Expect(http.StatusOK)
	r := app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).Expect(http.StatusCreated)
	has(t, "statement", r.String(), `"deadline":null`, `"cost_total":3020.00,"prepayments_paid":3000.00,"prepayments_charged":3000.00,"result":20.00`)
	var st statement
	r.JSON(&st)
	// The CO2 split is German law: refused in France.
	r = app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31",
		"co2": map[string]any{"cost": 10, "emissions_kg": 100}}).Expect(http.StatusBadRequest)
	has(t, "refusal", r.String(), "co2: the CO2 cost is split under the German CO2KostAufG, for buildings in Germany only")

	fr := mailtest.PDFText(t, app.Get(w.path("/opcost-statements/"+st.ID+"/contracts/"+l1+"/pdf"), token).Expect(http.StatusOK).Body)
	if fr != "" {
		flat := strings.Join(strings.Fields(strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(fr)), " ")
		has(t, "French letter", flat, "Décompte de régularisation des charges", "Léa Dubois", "12 rue des Lilas, 69003 Lyon",
			"Décompte par nature de charges",
			"I. Ascenseurs et monte-charge Ascenseur 360,00 € au prorata des tantièmes : 600,00 € × 600 / 1 000 × 365/365 jours = 360,00 € Sous-total 360,00 €",
			"II. Eau froide, eau chaude et chauffage collectif Chauffage 1 300,00 €",
			"au prorata de la surface habitable (m²) : 2 200,00 € × 65,00 m² / 110,00 m² × 365/365 jours = 1 300,00 €",
			"Eau et assainissement 325,00 €", "= 325,00 € Sous-total 1 625,00 €", "IV. Parties communes intérieures au bâtiment",
			"V. Espaces extérieurs au bâtiment", "VI. Hygiène Ordures ménagères 120,00 € par logement : 240,00 € × 1 / 2 × 365/365 jours = 120,00 € Sous-total 120,00 €",
			"VIII. Impositions et redevances Impôts et taxes 195,00 €",
			"Votre quote-part des charges 3 020,00 €", "Moins les provisions versées − 3 000,00 €", "Solde restant dû 20,00 €",
			"Conformément à l'article 23 de la loi n° 89-462 du 6 juillet 1989, les pièces justificatives de ces charges sont tenues à votre disposition pendant six mois")
	}
	en := mailtest.PDFText(t, app.Get(w.path("/opcost-statements/"+st.ID+"/contracts/"+l1+"/pdf?locale=en"), token).Expect(http.StatusOK).Body)
	golden.Dir(t, filepath.Join("testdata", "golden", "france"), map[string]string{"statement.fr.pdf.txt": fr, "statement.en.pdf.txt": en})
}
