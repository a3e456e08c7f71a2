package opcosts_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/platform/mail/mailtest"
)

// letterText is the contract's letter of the statement as flat text
// ("" where the PDF text cannot be read).
func letterText(t *testing.T, w world, statementID, contractID, locale string) string {
	t.Helper()
	text := mailtest.PDFText(t, w.app.Get(w.path("/opcost-statements/"+statementID+"/contracts/"+contractID+"/pdf?locale="+locale), w.token).
		Expect(http.StatusOK).Body)
	return strings.Join(strings.Fields(strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(text)), " ")
}

// § 9a Abs. 1 HeizKV, a worked example constructed for this test (figures
// by hand). Lindenstraße 5, 2025: WE 1, WE 2, WE 3 50.00 m² each, WE 4
// 30.00 m² (180.00 m²). Heating 3,600.00, 70 % by consumption (2,520.00),
// 30 % by area (1,080.00). The meters of WE 1 to 3 count 2,000, 3,000
// and 1,000 kWh; WE 4's meter failed (no readings). WE 4 holds 30/180 =
// 16.67 % of the area, under 25 %: its consumption is the building's
// average per m² of the units read, 6,000 kWh / 150 m² = 40 kWh/m², times
// 30 m² = 1,200.000 kWh, spread evenly over the year. WE 4 is empty to
// 30 June; D-1 rents it from 1 July (184 days): 1,200 × 184/365 =
// 604.932 kWh (the empty half year's 595.068 kWh are the landlord's).
// The building: 7,200.000 kWh.
//   - A-1 (WE 1): base 1,080.00 × 50/180 = 300.00; consumption 2,520.00
//     × 2,000/7,200 = 700.00
//   - B-1 (WE 2): 300.00 and 1,050.00; C-1 (WE 3): 300.00 and 350.00
//   - D-1 (WE 4): base 1,080.00 × 30/180 × 184/365 = 90.739… = 90.74;
//     consumption 2,520.00 × 604.932/7,200 = 211.726… = 211.73
//
// Without `estimate_missing` the same data is the 422 naming WE 4.
func TestHeatingEstimatedForAFailedMeter(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	u1, u2, u3, u4 := w.unit(t, "WE 1", 50), w.unit(t, "WE 2", 50), w.unit(t, "WE 3", 50), w.unit(t, "WE 4", 30)
	w.lease(t, u1, "A-1", "de", "Anna Alt", "2025-01-01", "", 10)
	w.lease(t, u2, "B-1", "de", "Bernd Brand", "2025-01-01", "", 10)
	w.lease(t, u3, "C-1", "de", "Carla Conrad", "2025-01-01", "", 10)
	d1 := w.lease(t, u4, "D-1", "de", "Dora Diehl", "2025-07-01", "", 10)
	w.meter(t, u1, "heating", "2024-12-31", 0, "2025-12-31", 2000)
	w.meter(t, u2, "heating", "2024-12-31", 0, "2025-12-31", 3000)
	w.meter(t, u3, "heating", "2024-12-31", 0, "2025-12-31", 1000)
	w.bill(t, u1, "heating", "2025-10-31", 3600)
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"heating": "heizkv"}, "consumption_shares": map[string]any{"heating": 70}}).
		Expect(http.StatusOK)
	year := map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}
	r := app.Post(w.path("/opcost-statements"), token, year).Expect(http.StatusUnprocessableEntity)
	has(t, "refusal", r.String(), `"readings_missing"`, `WE 4`)
	year["estimate_missing"] = true
	r = app.Post(w.path("/opcost-statements"), token, year).Expect(http.StatusCreated)
	body := r.String()
	has(t, "statement", body,
		`"estimates":[{"category":"heating","property_id":"`+u4+`","unit":"WE 4","method":"building_average","consumption":"1200.000","measure":"kWh","area_percent":"16.67"}]`,
		`"part":"base","percent":30,"measure":null,"building_total":1080.00,"unit_value":"50.00","total_value":"180.00","days":365,"period_days":365,"amount":300.00`,
		`"unit_value":"2000.000","total_value":"7200.000","days":365,"period_days":365,"amount":700.00`,
		`"unit_value":"3000.000","total_value":"7200.000","days":365,"period_days":365,"amount":1050.00`,
		`"unit_value":"1000.000","total_value":"7200.000","days":365,"period_days":365,"amount":350.00`,
		`"building_total":1080.00,"unit_value":"30.00","total_value":"180.00","days":184,"period_days":365,"amount":90.74`,
		`"unit_value":"604.932","total_value":"7200.000","days":184,"period_days":365,"amount":211.73`)
	if strings.Contains(body, `"area_only"`) {
		t.Errorf("estimated within 25 %%, yet by area: %s", body)
	}
	var st statement
	r.JSON(&st)
	if de := letterText(t, w, st.ID, d1, "de"); de != "" {
		has(t, "German letter", de, "Der Verbrauch (Heizkosten) der Wohnung WE 4 konnte nicht erfasst werden; er wurde nach § 9a Abs. 1 HeizKV "+
			"aus dem Durchschnittsverbrauch der erfassten Wohnungen des Gebäudes je m² Wohnfläche geschätzt: 1.200,000 kWh.")
	}
}

// § 9a Abs. 2 HeizKV, constructed: WE 1 60.00 m², WE 2 40.00 m², WE 2's
// meter failed. 40 % of the area is not read, above 25 %: the heating
// (1,000.00) goes by living area alone, A-1 600.00, B-1 400.00, and the
// letter says so; an estimate would have needed at most 25 %.
func TestHeatingByAreaWhenTooMuchIsNotRead(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	u1, u2 := w.unit(t, "WE 1", 60), w.unit(t, "WE 2", 40)
	a1 := w.lease(t, u1, "A-1", "de", "Anna Alt", "2025-01-01", "", 10)
	w.lease(t, u2, "B-1", "de", "Bernd Brand", "2025-01-01", "", 10)
	w.meter(t, u1, "heating", "2024-12-31", 0, "2025-12-31", 2000)
	w.bill(t, u1, "heating", "2025-10-31", 1000)
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"heating": "heizkv"}, "consumption_shares": map[string]any{"heating": 50}}).
		Expect(http.StatusOK)
	r := app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31", "estimate_missing": true}).
		Expect(http.StatusCreated)
	has(t, "statement", r.String(),
		`"category":"heating","key":"heizkv","total":1000.00,"tenants":1000.00,"landlord":0.00,"area_only":true`,
		`"method":"area_only","consumption":null,"measure":null,"area_percent":"40.00"`,
		`"part":"all","percent":100,"measure":null,"building_total":1000.00,"unit_value":"60.00","total_value":"100.00","days":365,"period_days":365,"amount":600.00`,
		`"part":"all","percent":100,"measure":null,"building_total":1000.00,"unit_value":"40.00","total_value":"100.00","days":365,"period_days":365,"amount":400.00`)
	var st statement
	r.JSON(&st)
	if de := letterText(t, w, st.ID, a1, "de"); de != "" {
		has(t, "German letter", de, "Der Verbrauch (Heizkosten) der Wohnung WE 2 konnte nicht erfasst werden. Da die nicht erfassten Wohnungen "+
			"40,00 % der Wohnfläche ausmachen (mehr als 25 %), werden diese Kosten nach § 9a Abs. 2 HeizKV ausschließlich nach Wohnfläche verteilt.")
	}
	if fr := letterText(t, w, st.ID, a1, "fr"); fr != "" {
		has(t, "French letter", fr, "ces charges sont réparties uniquement selon la surface habitable (§ 9a al. 2 HeizKV)")
	}
}

// § 8 CO2KostAufG, constructed: WE 1 80.00 m² (a dwelling) and a shop
// 60.00 m² let for another use (`use: non_residential`). Heating 3,000.00
// by area: A-1 1,714.29, L-1 1,285.71. CO2 cost 400.00 of 3,500 kg for
// 140 m², 25.00 kg/m², tier 4: the landlord bears 30 % of the dwelling's
// part, 400.00 × 1,714.29/3,000 × 30 % = 68.57; of the shop's half,
// 400.00 × 1,285.71/3,000 × 50 % = 85.71. The landlord bears 154.28.
func TestCO2SplitHalfForNonResidentialUnits(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	flat, shop := w.unit(t, "WE 1", 80), w.unit(t, "Laden", 60)
	app.Put(w.path("/units/"+shop), token, map[string]any{"use": "non_residential"}).Expect(http.StatusOK)
	a1 := w.lease(t, flat, "A-1", "de", "Anna Alt", "2025-01-01", "", 10)
	l1 := w.lease(t, shop, "L-1", "de", "Laden GmbH", "2025-01-01", "", 10)
	w.bill(t, flat, "heating", "2025-10-31", 3000)
	r := app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31",
		"co2": map[string]any{"cost": 400, "emissions_kg": 3500}}).Expect(http.StatusCreated)
	body := r.String()
	has(t, "statement", body,
		`"tier":4,"landlord_percent":30,"tenant_percent":70,"landlord":154.28`,
		`"category":"co2","key":"co2","part":"all","percent":30,"measure":null,"building_total":400.00,"unit_value":"1714.29","total_value":"3000.00","days":365,"period_days":365,"amount":-68.57}`,
		`"category":"co2","key":"co2","part":"all","percent":50,"measure":null,"building_total":400.00,"unit_value":"1285.71","total_value":"3000.00","days":365,"period_days":365,"amount":-85.71,"non_residential":true}`,
		`"cost_total":1645.72`, `"cost_total":1200.00`)
	var st statement
	r.JSON(&st)
	if de := letterText(t, w, st.ID, l1, "de"); de != "" {
		has(t, "shop's letter", de, "Ihre Räume sind nicht zu Wohnzwecken vermietet: Die CO2-Kosten tragen Vermieter und Mieter je zur Hälfte (§ 8 CO2KostAufG).",
			"× 50 % = − 85,71 €")
	}
	if de := letterText(t, w, st.ID, a1, "de"); strings.Contains(de, "§ 8 CO2KostAufG") {
		t.Errorf("the dwelling's letter names § 8: %s", de)
	}
}
