package opcosts_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit/golden"
)

// meter makes a counter of the kind on the property, counting kWh (water:
// m3), with the readings (date, value) in order.
func (w world) meter(t testing.TB, property, kind string, readings ...any) string {
	t.Helper()
	unit := "kWh"
	if strings.HasPrefix(kind, "water") {
		unit = "m3"
	}
	c := id(t, w.app.Post("/api/v1/properties/"+property+"/counters", w.token, map[string]any{"kind": kind, "unit": unit}).
		Expect(http.StatusCreated))
	for i := 0; i+1 < len(readings); i += 2 {
		w.app.Post("/api/v1/properties/"+property+"/counters/"+c+"/readings", w.token, map[string]any{"read_on": readings[i], "value": readings[i+1]}).
			Expect(http.StatusCreated)
	}
	return c
}

// Heating per HeizKV with a meter replaced during the year and the CO2
// cost split, a worked example constructed for this test (every figure
// derived by hand below).
//
// Lindenstraße 5, Berlin, 2025 (365 days): WE 1 80.00 m², WE 2 60.00 m².
// A-1 rents WE 1 all year; B-1 rents WE 2 to 2025-06-30, it is empty in
// July, C-1 rents it from 2025-08-01. Heating 3,000.00, 70 % by
// consumption (2,100.00), 30 % by living area (900.00).
//
// Meters (kWh): WE 1's old meter reads 1,000 on 2024-12-31 and 4,100 on
// 2025-07-31, when it is replaced; the new one reads 0 that day and
// 3,100 on 2026-01-31, so 3,100 × 153/184 days = 2,577.717 fall in 2025:
// WE 1 used 3,100 + 2,577.717 = 5,677.717. WE 2's meter reads 500
// (2024-12-31), 1,700 (B-1 moves out, 2025-06-30), 1,750 (2025-07-31)
// and 2,822.283 (2025-12-31): B-1 used 1,200, the empty July 50 (the
// landlord's), C-1 1,072.283. The building used 8,000.000.
//
//   - base 900.00 × 80/140 = 514.29; consumption 2,100.00 ×
//     5,677.717/8,000 = 1,490.40; heating 2,004.69
//   - B-1: base 900.00 × 60/140 × 181/365 = 191.27; consumption 2,100.00
//     × 1,200/8,000 = 315.00; heating 506.27
//   - C-1: base 900.00 × 60/140 × 153/365 = 161.68; consumption 2,100.00
//     × 1,072.283/8,000 = 281.47; heating 443.15
//
// CO2 cost 400.00 of 3,500 kg CO2 for 140 m²: 25.00 kg/m², tier 4 of the
// Anlage zu § 5 CO2KostAufG (22 to under 27 kg): the landlord bears 30 %.
// Each tenant's part follows their heating costs: A-1 400.00 ×
// 2,004.69/3,000 × 30 % = 80.19; B-1 20.25; C-1 17.73.
//
// Prepayments 100.00 a month: A-1 paid 1,200.00, costs 1,924.50, owes
// 724.50; proposed prepayment (1,200.00 + 724.50)/12 = 160.375, 160.00.
// B-1 paid 600.00 for 486.02: credit 113.98. C-1 paid 300.00 for 425.42:
// owes 125.42.
func TestHeatingByConsumptionWithAMeterReplacedAndTheCO2Split(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	we1, we2 := w.unit(t, "WE 1", 80), w.unit(t, "WE 2", 60)
	a := w.lease(t, we1, "A-1", "de", "Anna Schmidt", "2025-01-01", "", 100)
	b := w.lease(t, we2, "B-1", "de", "Bernd Meier", "2025-01-01", "2025-06-30", 100)
	c := w.lease(t, we2, "C-1", "de", "Carla Weber", "2025-08-01", "", 100)
	w.pay(t, we1, a, 12*600)
	w.pay(t, we2, b, 6*600)
	w.pay(t, we2, c, 3*600)
	old := w.meter(t, we1, "heating", "2024-12-31", 1000, "2025-07-31", 4100)
	app.Put("/api/v1/properties/"+we1+"/counters/"+old, token, map[string]any{"is_active": false}).Expect(http.StatusOK)
	w.meter(t, we1, "heating", "2025-07-31", 0, "2026-01-31", 3100)
	w.meter(t, we2, "heating", "2024-12-31", 500, "2025-06-30", 1700, "2025-07-31", 1750, "2025-12-31", 2822.283)
	w.bill(t, we1, "heating", "2025-04-30", 3000)
	r := app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"heating": "heizkv"}, "consumption_shares": map[string]any{"heating": 70}}).
		Expect(http.StatusOK)
	has(t, "keys", r.String(), `"heating":"heizkv"`, `"consumption_shares":{"heating":70}`)

	r = app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31",
		"co2": map[string]any{"cost": 400, "emissions_kg": 3500}}).Expect(http.StatusCreated)
	body := r.String()
	has(t, "statement", body,
		`"category":"heating","key":"heizkv","total":3000.00,"tenants":2954.11,"landlord":45.89`,
		`"category":"co2","key":"co2","total":0.00,"tenants":-118.17,"landlord":118.17`,
		`"key":"area","part":"base","percent":30,"measure":null,"building_total":900.00,"unit_value":"80.00","total_value":"140.00","days":365,"period_days":365,"amount":514.29`,
		`"key":"consumption","part":"consumption","percent":70,"measure":"kWh","building_total":2100.00,"unit_value":"5677.717","total_value":"8000.000","days":365,"period_days":365,"amount":1490.40`,
		`"unit_value":"60.00","total_value":"140.00","days":181,"period_days":365,"amount":191.27`,
		`"unit_value":"1200.000","total_value":"8000.000","days":181,"period_days":365,"amount":315.00`,
		`"unit_value":"60.00","total_value":"140.00","days":153,"period_days":365,"amount":161.68`,
		`"unit_value":"1072.283","total_value":"8000.000","days":153,"period_days":365,"amount":281.47`,
		`"category":"co2","key":"co2","part":"all","percent":30,"measure":null,"building_total":400.00,"unit_value":"2004.69","total_value":"3000.00","days":365,"period_days":365,"amount":-80.19`,
		`"amount":-20.25`, `"amount":-17.73`,
		`"cost_total":1924.50,"prepayments_paid":1200.00,"prepayments_charged":1200.00,"result":724.50`,
		`"prepayment_monthly":100.00,"proposed_prepayment":160.00`,
		`"cost_total":486.02,"prepayments_paid":600.00,"prepayments_charged":600.00,"result":-113.98`,
		`"cost_total":425.42,"prepayments_paid":300.00,"prepayments_charged":500.00,"result":125.42`,
		`"co2":{"cost":400.00,"emissions_kg":"3500.00","living_area":"140.00","kg_per_m2":"25.00","tier":4,"landlord_percent":30,"tenant_percent":70,"landlord":118.17}`)
	var st statement
	r.JSON(&st)
	de := mailtest.PDFText(t, app.Get(w.path("/opcost-statements/"+st.ID+"/contracts/"+a+"/pdf"), token).Expect(http.StatusOK).Body)
	if de != "" {
		de = strings.ReplaceAll(de, "\u00a0", " ")
		// Lines wrap where the page ends them: read the words in order.
		has(t, "German letter", strings.Join(strings.Fields(de), " "), "Heizkosten – Grundkosten (30 %)", "514,29 €",
			"Grundkosten nach Wohnfläche (§ 7 Abs. 1 HeizKV): 900,00 € × 80,00 m² / 140,00 m² × 365/365 Tage = 514,29 €",
			"Heizkosten – Verbrauchskosten 1.490,40 € (70 %)", "nach erfasstem Verbrauch: 2.100,00 € × 5.677,717 kWh / 8.000,000 kWh = 1.490,40 €",
			"Abzug: Anteil des Vermieters an − 80,19 € den CO2-Kosten",
			"400,00 € × 2.004,69 € / 3.000,00 € × 30 % = − 80,19 €", "25,00 kg CO2 je m²", "Stufe 4 der Anlage zu § 5 CO2KostAufG",
			"Vermieter 30 %", "1.924,50 €", "Nachzahlung", "724,50 €")
	}
	en := mailtest.PDFText(t, app.Get(w.path("/opcost-statements/"+st.ID+"/contracts/"+b+"/pdf?locale=en"), token).Expect(http.StatusOK).Body)
	golden.Dir(t, filepath.Join("testdata", "golden", "heating"), map[string]string{"statement.de.pdf.txt": de, "statement.en.pdf.txt": en})
}

// The published CO2 example of HEWA GmbH ("Beispiel: Berechnung der
// CO2-Kosten eines vermieteten Mehrfamilienhauses",
// https://www.hewagmbh.de/co2-kostenaufteilungsgesetz-co2-kostaufg/):
// 380 m² of living area, 7,074.39 kg CO2 costing 212.23 €; 7,074.39 /
// 380 = 18.62 kg CO2/m², the tier from 17 to under 22 kg: the landlord
// bears 20 %, 212.23 € × 0.20 = 42.45 €, the tenants 169.78 €. Here one
// tenant has the whole house, so bears the whole heating bill.
func TestPublishedExampleHEWACO2Split(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	house := w.unit(t, "Haus", 380)
	w.lease(t, house, "H-1", "de", "Hanna Berg", "2025-01-01", "", 10)
	w.bill(t, house, "heating", "2025-03-31", 2500)
	r := app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31",
		"co2": map[string]any{"cost": 212.23, "emissions_kg": 7074.39}}).Expect(http.StatusCreated)
	has(t, "statement", r.String(),
		`"co2":{"cost":212.23,"emissions_kg":"7074.39","living_area":"380.00","kg_per_m2":"18.62","tier":3,"landlord_percent":20,"tenant_percent":80,"landlord":42.45}`,
		`"building_total":212.23,"unit_value":"2500.00","total_value":"2500.00","days":365,"period_days":365,"amount":-42.45`,
		// The tenant bears 2,500.00 − 42.45: of the CO2 cost 169.78.
		`"cost_total":2457.55`)
}

// The published heating example of the Bürgerforum Wohnen
// (http://www.bfw-gohl.de/abrechnung/schema, "Schema", section 3 and 4):
// heating costs 4,945.92 €, 70 % by the heat-cost allocators' units
// (3,462.14 €, 300 units in the house), 30 % by living area (1,483.78 €,
// 400 m²); the flat has 30 units and 50 m², period 1 July to 30 June.
// The split of the costs is reproduced to the cent. The flat's shares
// are not: the source multiplies rounded prices per unit (11.540 €, 3.709
// €/m²) and gets 346.20 € and 185.45 €; the exact shares, which this
// module bills, are 3,462.14 × 30/300 = 346.214 = 346.21 € and 1,483.78
// × 50/400 = 185.4725 = 185.47 €.
func TestPublishedExampleBFWHeatingSplit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	flat, rest := w.unit(t, "Wohnung", 50), w.unit(t, "Übrige Wohnungen", 350)
	w.lease(t, flat, "F-1", "de", "Frieda Lang", "2024-07-01", "", 60)
	w.lease(t, rest, "R-1", "de", "Rolf Ott", "2024-07-01", "", 60)
	w.meter(t, flat, "heating", "2024-06-30", 0, "2025-06-30", 30)
	w.meter(t, rest, "heating", "2024-06-30", 0, "2025-06-30", 270)
	w.bill(t, flat, "heating", "2025-05-31", 4945.92)
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"heating": "heizkv"}, "consumption_shares": map[string]any{"heating": 70}}).
		Expect(http.StatusOK)
	r := app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2024-07-01", "period_to": "2025-06-30"}).Expect(http.StatusCreated)
	has(t, "statement", r.String(),
		`"part":"base","percent":30,"measure":null,"building_total":1483.78,"unit_value":"50.00","total_value":"400.00","days":365,"period_days":365,"amount":185.47`,
		`"part":"consumption","percent":70,"measure":"kWh","building_total":3462.14,"unit_value":"30.000","total_value":"300.000","days":365,"period_days":365,"amount":346.21`)
}

// Bad input for heating and meters: a clear 4xx naming the category or
// the unit, nothing written.
func TestHeatingBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	r := app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"heating": "heizkv"}, "consumption_shares": map[string]any{"heating": 80}}).
		Expect(http.StatusBadRequest)
	has(t, "refusal", r.String(), "consumption_shares.heating: the heating bills are spread 50 to 70 % by consumption (§ 7 Abs. 1 HeizKV), not 80 %")
	r = app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"heating": "heizkv"}}).Expect(http.StatusBadRequest)
	has(t, "refusal", r.String(), "consumption_shares.heating: is required with heizkv")
	r = app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"waste": "consumption", "water": "heizkv"}, "consumption_shares": map[string]any{"garden": 60}}).
		Expect(http.StatusBadRequest)
	has(t, "refusal", r.String(), "keys.waste: no meter counts this category", "keys.water: heizkv (HeizKV) spreads heating and hot water only",
		"consumption_shares.garden: only a category set to heizkv")
	has(t, "keys", app.Get(w.path("/opcost-keys"), token).Expect(http.StatusOK).String(), `"heating":"area"`, `"consumption_shares":{}`)

	we1, we2 := w.unit(t, "WE 1", 50), w.unit(t, "WE ohne Zähler", 50)
	w.lease(t, we1, "A-1", "de", "Anna Schmidt", "2025-01-01", "", 10)
	w.meter(t, we1, "heating", "2024-12-31", 0, "2025-12-31", 100)
	// A meter with one reading spans nothing.
	w.meter(t, we2, "heating", "2025-12-31", 7)
	w.bill(t, we1, "heating", "2025-02-01", 1000)
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"heating": "heizkv"}, "consumption_shares": map[string]any{"heating": 50}}).
		Expect(http.StatusOK)
	r = app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusUnprocessableEntity)
	has(t, "refusal", r.String(), `"readings_missing"`, `WE ohne Zähler`)
	// CO2 outside Germany, or above the heating costs: 400.
	r = app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31",
		"co2": map[string]any{"cost": 0, "emissions_kg": -1}}).Expect(http.StatusBadRequest)
	has(t, "refusal", r.String(), "co2.cost: must be above 0", "co2.emissions_kg: must be above 0")
	w.meter(t, we2, "heating", "2024-12-31", 0, "2025-12-31", 100)
	r = app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31",
		"co2": map[string]any{"cost": 1000.01, "emissions_kg": 100}}).Expect(http.StatusBadRequest)
	has(t, "refusal", r.String(), "co2.cost: must not exceed the heating costs of the period (1000.00)")
	var page struct {
		Statements []statement `json:"statements"`
	}
	app.Get(w.path("/opcost-statements"), token).Expect(http.StatusOK).JSON(&page)
	if len(page.Statements) != 0 {
		t.Fatalf("refused, yet stored: %+v", page.Statements)
	}
}

// The published person-days example of deutschesmietrecht.de
// (https://deutschesmietrecht.de/mietrechtlexikon-buchstabe-p/211-personentage.html,
// "Wie berechne ich Personentage in der Betriebskostenabrechnung"): a
// house of five flats, a year of 365 days, person-days EG 730, 1. OG 730,
// 2. OG 181 (1 person to 30 June) + 368 (2 persons from 1 July), 3. OG
// 453 (3 persons to 31 May) + 428 (2 persons from 1 June), DG 365; 3,255
// in all. Waste 2,000 €: the ground floor's tenants bear 448.54 €
// (2,000 × 730 / 3,255 = 448.5407), reproduced to the cent (the source's
// rounded factor 0.614 € is only shown; its amount is the exact one).
func TestPublishedExamplePersonDays(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	flats := []struct {
		name    string
		persons []any // from, persons, ...
	}{
		{"EG", []any{"2025-01-01", 2}}, {"1. OG", []any{"2025-01-01", 2}}, {"2. OG", []any{"2025-01-01", 1, "2025-07-01", 2}},
		{"3. OG", []any{"2025-01-01", 3, "2025-06-01", 2}}, {"DG", []any{"2025-01-01", 1}},
	}
	var eg, first string
	for i, f := range flats {
		u := w.unit(t, f.name, 60)
		c := w.lease(t, u, "P-"+f.name, "de", "Mieter "+f.name, "2025-01-01", "", 10)
		for j := 0; j+1 < len(f.persons); j += 2 {
			app.Post("/api/v1/contracts/"+c+"/household", token, map[string]any{"from": f.persons[j], "persons": f.persons[j+1]}).Expect(http.StatusCreated)
		}
		if i == 0 {
			eg, first = c, u
		}
	}
	w.bill(t, first, "waste", "2025-03-31", 2000)
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"waste": "persons"}}).Expect(http.StatusOK)
	r := app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).Expect(http.StatusCreated)
	has(t, "statement", r.String(),
		`"contract_id":"`+eg+`"`,
		`"category":"waste","key":"persons","part":"all","percent":100,"measure":null,"building_total":2000.00,"unit_value":"730","total_value":"3255","days":365,"period_days":365,"amount":448.54`,
		`"unit_value":"549","total_value":"3255","days":365,"period_days":365,"amount":337.33`,
		`"unit_value":"881","total_value":"3255","days":365,"period_days":365,"amount":541.32`,
		`"unit_value":"365","total_value":"3255","days":365,"period_days":365,"amount":224.27`,
		`"category":"waste","key":"persons","total":2000.00,"tenants":2000.00,"landlord":0.00`)
}

// Water wholly by consumption, cold and hot meters together, a tenant
// leaving without an interim reading (figures by hand): WE 1's meters
// count 60 + 20 = 80 m3 in 2025; WE 2's 40 m3, of which B-1 (to 30 June,
// 181 days) is given 40 × 181/365 = 19.836 m3, the empty rest being the
// landlord's. Water 600.00: A-1 600.00 × 80/120 = 400.00; B-1 600.00 ×
// 19.836/120 = 99.18; the landlord 100.82.
func TestWaterByConsumptionProratedWithoutAnInterimReading(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	we1, we2 := w.unit(t, "WE 1", 80), w.unit(t, "WE 2", 60)
	w.lease(t, we1, "A-1", "de", "Anna Schmidt", "2025-01-01", "", 10)
	w.lease(t, we2, "B-1", "de", "Bernd Meier", "2025-01-01", "2025-06-30", 10)
	w.meter(t, we1, "water_cold", "2024-12-31", 100, "2025-12-31", 160)
	w.meter(t, we1, "water_hot", "2024-12-31", 5, "2025-12-31", 25)
	w.meter(t, we2, "water_cold", "2024-12-31", 0, "2025-12-31", 40)
	w.bill(t, we1, "water", "2025-10-01", 600)
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"water": "consumption"}}).Expect(http.StatusOK)
	r := app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).Expect(http.StatusCreated)
	has(t, "statement", r.String(),
		`"category":"water","key":"consumption","total":600.00,"tenants":499.18,"landlord":100.82`,
		`"key":"consumption","part":"all","percent":100,"measure":"m3","building_total":600.00,"unit_value":"80.000","total_value":"120.000","days":365,"period_days":365,"amount":400.00`,
		`"key":"consumption","part":"all","percent":100,"measure":"m3","building_total":600.00,"unit_value":"19.836","total_value":"120.000","days":181,"period_days":365,"amount":99.18`)
}
