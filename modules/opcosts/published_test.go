package opcosts_test

import (
	"net/http"
	"strconv"
	"testing"
)

// frenchWorld is newWorld's landlord with a building in France instead.
func frenchWorld(t *testing.T, name string) world {
	t.Helper()
	w := newWorld(t)
	w.building = id(t, w.app.Post("/api/v1/buildings", w.token, map[string]any{"name": name, "address": "3 rue Mercière",
		"postal_code": "69002", "city": "Lyon", "country_code": "FR"}).Expect(http.StatusCreated))
	return w
}

// The TEOM example of BailFacile's guide "Taxe d'ordures ménagères :
// comment la facturer au locataire ?"
// (https://www.bailfacile.fr/guides/taxe-ordure-menagere-locataire, read
// 2026-11-28): the landlord asks 10 € a month for the TEOM; in November
// the taxe foncière of 600 € holds 140 € of TEOM; the tenant has paid
// 110 € in 11 months, so the landlord claims the 30 € missing. Here the
// tenant rents the lot all year, pays eleven months of rent and
// provisions (the December provision is still unpaid when the statement
// is made), the TEOM is recorded as the impositions it is (only the
// TEOM, not the taxe foncière's rest, is recoverable).
func TestPublishedExampleBailFacileTEOM(t *testing.T) {
	t.Parallel()
	w := frenchWorld(t, "Résidence Mercière")
	lot := w.unit(t, "Lot 4", 48)
	l := w.lease(t, lot, "L-4", "fr", "Paul Girard", "2025-01-01", "", 10)
	w.pay(t, lot, l, 11*510)
	w.bill(t, lot, "property_tax", "2025-11-15", 140)
	r := w.app.Post(w.path("/opcost-statements"), w.token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated)
	has(t, "statement", r.String(), `"building_total":140.00`, `"amount":140.00`,
		`"cost_total":140.00,"prepayments_paid":110.00,"prepayments_charged":120.00,"result":30.00`)
}

// The worked example of BailFacile's guide "Décompte de charges locatives"
// (https://www.bailfacile.fr/guides/decompte-charges-locataire, read
// 2026-11-28): the tenant pays 200 € of provisions a month, 2,400 € a
// year; with 2,000 € of real charges the landlord refunds 2,400 − 2,000 =
// 400 €; with 3,000 € he claims 3,000 − 2,400 = 600 €. Both cases, one
// draft after the other (a draft books nothing; the second follows a
// third bill of 1,000 €).
func TestPublishedExampleBailFacileDecompte(t *testing.T) {
	t.Parallel()
	w := frenchWorld(t, "Résidence Bellecour")
	lot := w.unit(t, "Lot 2", 62)
	l := w.lease(t, lot, "L-2", "fr", "Claire Petit", "2025-01-01", "", 200)
	w.pay(t, lot, l, 12*700)
	w.bill(t, lot, "cleaning", "2025-06-30", 1200)
	w.bill(t, lot, "water", "2025-12-31", 800)
	r := w.app.Post(w.path("/opcost-statements"), w.token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated)
	has(t, "statement with 2,000 € of charges", r.String(), `"cost_total":2000.00,"prepayments_paid":2400.00,"prepayments_charged":2400.00,"result":-400.00`)
	w.app.Delete(w.path("/opcost-statements/"+id(t, r)), w.token).Expect(http.StatusNoContent)
	w.bill(t, lot, "garden", "2025-09-30", 1000)
	r = w.app.Post(w.path("/opcost-statements"), w.token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated)
	has(t, "statement with 3,000 € of charges", r.String(), `"cost_total":3000.00,"prepayments_paid":2400.00,"prepayments_charged":2400.00,"result":600.00`)
}

// The tantièmes example "Exemple de calcul pour le propriétaire du lot 26"
// printed in "Comment calculer les charges d'ascenseur ?"
// (https://synonyme-du-mot.com/les-articles/comment-calculer-les-charges-dascenseur,
// read 2026-11-28; an aggregator quoting a syndic's budget, not an
// association): general charges 144 / 10,000 × 98,764 = 1,422.20 €;
// elevator B 577 / 10,000 × 2,300 = 132.71 €. A building holds one grid
// of tantièmes (each unit's `share`), so each grid is a building here:
// lot 26 with 144 of 10,000 tantièmes for the general charges, and with
// 577 of 10,000 in the elevator's grid; the other lots are one unit with
// the rest, rented too.
func TestPublishedExampleTantiemes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		grid, category  string
		share, total    int
		bill            float64
		want, wantOther string
	}{
		// 98,764 × 9,856 / 10,000 = 97,341.80 (the rest to the cent).
		{"charges générales", "cleaning", 144, 10000, 98764, `"amount":1422.20`, `"amount":97341.80`},
		// 2,300 × 9,423 / 10,000 = 2,167.29.
		{"ascenseur B", "elevator", 577, 10000, 2300, `"amount":132.71`, `"amount":2167.29`},
	} {
		t.Run(c.grid, func(t *testing.T) {
			t.Parallel()
			w := frenchWorld(t, "Résidence du Parc ("+c.grid+")")
			lot, rest := w.unit(t, "Lot 26", 70), w.unit(t, "Autres lots", 4800)
			w.app.Put(w.path("/units/"+lot), w.token, map[string]any{"share": c.share}).Expect(http.StatusOK)
			w.app.Put(w.path("/units/"+rest), w.token, map[string]any{"share": c.total - c.share}).Expect(http.StatusOK)
			l := w.lease(t, lot, "L-26", "fr", "Marc Roux", "2025-01-01", "", 10)
			w.lease(t, rest, "L-R", "fr", "SCI du Parc", "2025-01-01", "", 10)
			w.bill(t, lot, c.category, "2025-06-30", c.bill)
			w.app.Put(w.path("/opcost-keys"), w.token, map[string]any{"keys": map[string]any{c.category: "share"}}).Expect(http.StatusOK)
			r := w.app.Post(w.path("/opcost-statements"), w.token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
				Expect(http.StatusCreated)
			var st statement
			r.JSON(&st)
			for _, line := range st.Contracts {
				if line.ContractID == l {
					if len(line.Costs) != 1 {
						t.Fatalf("lot 26 costs: %+v", line.Costs)
					}
				}
			}
			has(t, "statement", r.String(), `"unit_value":"`+strconv.Itoa(c.share)+`","total_value":"`+strconv.Itoa(c.total)+`"`, c.want, c.wantOther)
		})
	}
}
