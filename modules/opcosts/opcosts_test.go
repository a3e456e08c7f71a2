package opcosts_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/golden"
)

func id(t testing.TB, r *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	r.JSON(&v)
	return v.ID
}

type costLine struct {
	Category   string `json:"category"`
	Key        string `json:"key"`
	Total      any    `json:"building_total"`
	UnitValue  string `json:"unit_value"`
	TotalValue string `json:"total_value"`
	Days       int    `json:"days"`
	PeriodDays int    `json:"period_days"`
}

type contractLine struct {
	ContractID     string     `json:"contract_id"`
	Days           int        `json:"days"`
	Costs          []costLine `json:"costs"`
	ChargeID       *string    `json:"charge_id"`
	CompensationID *string    `json:"compensation_id"`
	Excluded       bool       `json:"excluded"`
}

type statement struct {
	ID        string         `json:"id"`
	Status    string         `json:"status"`
	Deadline  *string        `json:"deadline"`
	Contracts []contractLine `json:"contracts"`
}

// world is a landlord with a building in Germany.
type world struct {
	app      *testkit.App
	token    string
	building string
}

func newWorld(t testing.TB) world {
	t.Helper()
	app := testkit.Start(t)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	w := world{app: app, token: accountstest.NewUser(t, app).Token}
	w.building = id(t, app.Post("/api/v1/buildings", w.token, map[string]any{"name": "Lindenstraße 5", "address": "Lindenstraße 5",
		"postal_code": "10969", "city": "Berlin", "country_code": "DE"}).Expect(http.StatusCreated))
	return w
}

// unit makes a property with the living area (nil: none) a unit of the
// building.
func (w world) unit(t testing.TB, name string, area any) string {
	t.Helper()
	body := map[string]any{"name": name, "country_code": "DE"}
	if area != nil {
		body["living_area"] = area
	}
	p := id(t, w.app.Post("/api/v1/properties", w.token, body).Expect(http.StatusCreated))
	w.app.Put("/api/v1/buildings/"+w.building+"/units/"+p, w.token, map[string]any{"share": 100}).Expect(http.StatusOK)
	return p
}

// lease makes an active contract of the property with a monthly rent of
// 500 and the prepayment, its charges from its start to today.
func (w world) lease(t testing.TB, property, number, locale, tenant, start, end string, prepayment float64) string {
	t.Helper()
	ten := id(t, w.app.Post("/api/v1/contragents", w.token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": tenant}).
		Expect(http.StatusCreated))
	terms := []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 500}, {"code": "CONTRACT_START_DATE", "value": start},
		{"code": "UTILITY_PREPAYMENT_AMOUNT", "value": prepayment}, {"code": "PAYMENT_DAY_OF_MONTH", "value": 1}}
	if end != "" {
		terms = append(terms, map[string]any{"code": "CONTRACT_END_DATE", "value": end})
	}
	c := id(t, w.app.Post("/api/v1/contracts", w.token, map[string]any{"property_id": property, "tenant_id": ten, "number": number,
		"locale": locale, "terms": terms}).Expect(http.StatusCreated))
	w.app.Post("/api/v1/contracts/"+c+"/activate", w.token, nil).Expect(http.StatusOK)
	w.app.Post("/api/v1/properties/"+property+"/expenses/refresh-all?since="+start[:7], w.token, nil).Expect(http.StatusOK)
	return c
}

func (w world) pay(t testing.TB, property, contract string, amount float64) {
	t.Helper()
	w.app.Post("/api/v1/properties/"+property+"/payments", w.token, map[string]any{"amount": amount, "paid_on": "2026-01-15",
		"method": "bank_transfer", "contract_id": contract}).Expect(http.StatusCreated)
}

func (w world) bill(t testing.TB, property, category, date string, amount float64) {
	t.Helper()
	sup := id(t, w.app.Post("/api/v1/contragents", w.token, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "Supplier " + category}).
		Expect(http.StatusCreated))
	w.app.Post("/api/v1/properties/"+property+"/bills", w.token, map[string]any{"supplier_id": sup, "bill_date": date, "amount": amount,
		"category": "operating", "operating_cost_category": category, "allocable": true}).Expect(http.StatusCreated)
}

func (w world) path(s string) string { return "/api/v1/buildings/" + w.building + s }

func has(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(text, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, text)
		}
	}
}

// A worked example constructed for this test (no published sample with
// its full arithmetic was at hand; every figure is derived below by hand).
//
// Building Lindenstraße 5, Berlin, calendar year 2025 (365 days), two
// flats: WE 1 80.00 m², WE 2 60.00 m² (140.00 m² in all).
//   - WE 1: contract A-1 (German) all year; 2 persons, 3 from 2025-07-01.
//   - WE 2: contract B-1 (French) 2025-01-01 to 2025-06-30 (181 days),
//     1 person; empty in July (31 days, the landlord's); contract C-1
//     (German) from 2025-08-01 (153 days), 3 persons.
//
// Grundsteuer 1,400.00 by living area:
//   - 1,400.00 × 80/140 × 365/365 = 800.00
//   - B-1: 1,400.00 × 60/140 × 181/365 = 297.534… = 297.53
//   - C-1: 1,400.00 × 60/140 × 153/365 = 251.506… = 251.51
//   - landlord (vacancy, rounding): 1,400.00 − 1,349.04 = 50.96
//
// Müllbeseitigung 730.00 by persons (person-days; an empty day counts one
// person, the landlord's): A-1 2 × 181 + 3 × 184 = 914, B-1 1 × 181 = 181,
// vacancy 31, C-1 3 × 153 = 459; in all 1,585.
//   - 730.00 × 914/1585 = 420.958… = 420.96
//   - B-1: 730.00 × 181/1585 = 83.362… = 83.36
//   - C-1: 730.00 × 459/1585 = 211.400… = 211.40
//   - landlord: 730.00 − 715.72 = 14.28
//
// Prepayments (100.00 a month, paid with the rent):
//   - 12 × 100.00 paid; costs 1,220.96; balance due 20.96
//   - B-1: 6 × 100.00 paid; costs 380.89; credit 219.11
//   - C-1: 3 of its 5 months paid (300.00); costs 462.91; balance due 162.91
func TestWorkedExampleWithTenantChangeAndVacancy(t *testing.T) {
	w := newWorld(t)
	app, token := w.app, w.token
	we1, we2 := w.unit(t, "WE 1", 80), w.unit(t, "WE 2", 60)
	a := w.lease(t, we1, "A-1", "de", "Anna Schmidt", "2025-01-01", "", 100)
	b := w.lease(t, we2, "B-1", "fr", "Benoît Martin", "2025-01-01", "2025-06-30", 100)
	c := w.lease(t, we2, "C-1", "de", "Carla Weber", "2025-08-01", "", 100)
	w.pay(t, we1, a, 12*600)
	w.pay(t, we2, b, 6*600)
	w.pay(t, we2, c, 3*600)
	app.Post("/api/v1/contracts/"+a+"/household", token, map[string]any{"persons": 2, "from": "2025-01-01"}).Expect(http.StatusCreated)
	app.Post("/api/v1/contracts/"+a+"/household", token, map[string]any{"persons": 3, "from": "2025-07-01"}).Expect(http.StatusCreated)
	app.Post("/api/v1/contracts/"+b+"/household", token, map[string]any{"persons": 1, "from": "2025-01-01"}).Expect(http.StatusCreated)
	app.Post("/api/v1/contracts/"+c+"/household", token, map[string]any{"persons": 3, "from": "2025-08-01"}).Expect(http.StatusCreated)
	w.bill(t, we1, "property_tax", "2025-05-15", 1400)
	w.bill(t, we2, "waste", "2025-03-01", 730)
	// Outside the period, or not allocable: not in the statement.
	w.bill(t, we1, "waste", "2026-01-10", 99)
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"waste": "persons"}}).Expect(http.StatusOK)

	r := app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).Expect(http.StatusCreated)
	body := r.String()
	has(t, "statement", body,
		`"category":"property_tax","key":"area","total":1400.00,"tenants":1349.04,"landlord":50.96`,
		`"category":"waste","key":"persons","total":730.00,"tenants":715.72,"landlord":14.28`,
		`"unit_value":"80.00","total_value":"140.00","days":365,"period_days":365,"amount":800.00`,
		`"unit_value":"60.00","total_value":"140.00","days":181,"period_days":365,"amount":297.53`,
		`"unit_value":"60.00","total_value":"140.00","days":153,"period_days":365,"amount":251.51`,
		`"unit_value":"914","total_value":"1585","days":365,"period_days":365,"amount":420.96`,
		`"unit_value":"181","total_value":"1585","days":181,"period_days":365,"amount":83.36`,
		`"unit_value":"459","total_value":"1585","days":153,"period_days":365,"amount":211.40`,
		`"cost_total":1220.96,"prepayments_paid":1200.00,"prepayments_charged":1200.00,"result":20.96`,
		`"cost_total":380.89,"prepayments_paid":600.00,"prepayments_charged":600.00,"result":-219.11`,
		`"cost_total":462.91,"prepayments_paid":300.00,"prepayments_charged":500.00,"result":162.91`,
		`"deadline":"2026-12-31","deadline_source":"§ 556 Abs. 3 BGB"`, `"status":"draft"`)
	var st statement
	r.JSON(&st)
	app.Get(w.path("/opcost-statements/"+st.ID), token).Expect(http.StatusOK)

	// The letters: German to A-1, French to B-1 (their contracts' locales).
	de := mailtest.PDFText(t, app.Get(w.path("/opcost-statements/"+st.ID+"/contracts/"+a+"/pdf"), token).Expect(http.StatusOK).Body)
	if de != "" {
		de = strings.ReplaceAll(de, "\u00a0", " ")
		has(t, "German letter", de, "Betriebskostenabrechnung", "Anna Schmidt", "A-1", "Lindenstraße 5, 10969 Berlin",
			"Grundsteuer", "nach Wohnfläche (m²): 1.400,00 € × 80,00 m² / 140,00 m² × 365/365 Tage = 800,00 €",
			"Müllbeseitigung", "nach Personenzahl: 730,00 € × 914 / 1585 Personentage = 420,96 €",
			"Ihr Kostenanteil", "1.220,96 €", "Geleistete Vorauszahlungen", "− 1.200,00 €", "1.200,00 €", "Nachzahlung", "20,96 €",
			"§ 556 Abs. 3 Satz 5 und 6 BGB")
	}
	fr := mailtest.PDFText(t, app.Get(w.path("/opcost-statements/"+st.ID+"/contracts/"+b+"/pdf"), token).Expect(http.StatusOK).Body)
	if fr != "" {
		fr = strings.ReplaceAll(strings.ReplaceAll(fr, "\u00a0", " "), "\u202f", " ")
		has(t, "French letter", fr, "Décompte de régularisation des charges", "Benoît Martin", "B-1",
			"du 01/01/2025 au 30/06/2025 (181 jours sur 365)",
			"Impôts et taxes", "au prorata de la surface habitable (m²) : 1 400,00 € × 60,00 m² / 140,00 m² × 181/365 jours = 297,53 €",
			"Ordures ménagères", "au prorata du nombre d'occupants : 730,00 € × 181 / 1585 jours-personnes = 83,36 €",
			"Moins les provisions versées", "600,00 €", "Trop-perçu en votre faveur", "219,11 €", "§ 556, al. 3")
	}
	// English on request.
	en := mailtest.PDFText(t, app.Get(w.path("/opcost-statements/"+st.ID+"/contracts/"+c+"/pdf?locale=en"), token).Expect(http.StatusOK).Body)
	if en != "" {
		has(t, "English letter", strings.ReplaceAll(en, "\u00a0", " "), "Operating-cost statement", "Balance due", "162.91")
	}
	app.Get(w.path("/opcost-statements/"+st.ID+"/contracts/"+we1+"/pdf"), token).Expect(http.StatusNotFound)
	// The whole letters as the tenants read them (rewrite with -update,
	// then read them).
	golden.Dir(t, filepath.Join("testdata", "golden"), map[string]string{"statement.de.pdf.txt": de, "statement.fr.pdf.txt": fr,
		"statement.en.pdf.txt": en})

	// Posted once: two charges and one credit.
	r = app.Post(w.path("/opcost-statements/"+st.ID+"/post"), token, nil).Expect(http.StatusOK)
	r.JSON(&st)
	if st.Status != "posted" {
		t.Fatalf("status %s", st.Status)
	}
	for _, l := range st.Contracts {
		switch l.ContractID {
		case a, c:
			if l.ChargeID == nil || l.CompensationID != nil {
				t.Errorf("%s: %+v", l.ContractID, l)
			}
		case b:
			if l.ChargeID != nil || l.CompensationID == nil {
				t.Errorf("B-1: %+v", l)
			}
		}
	}
	has(t, "charges of WE 1", app.Get("/api/v1/properties/"+we1+"/charges?per_page=200", token).Expect(http.StatusOK).String(),
		`"name":"Operating-cost statement 2025-01-01 – 2025-12-31"`, `"amount":20.96`)
	has(t, "credit of B-1", app.Get("/api/v1/properties/"+we2+"/compensations", token).Expect(http.StatusOK).String(),
		`"kind":"overpayment_refund"`, `"amount":219.11`)
	app.Post(w.path("/opcost-statements/"+st.ID+"/post"), token, nil).Expect(http.StatusConflict)
	// Another statement overlapping the posted year: refused, nothing new.
	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-07-01", "period_to": "2026-06-30"}).Expect(http.StatusConflict)
	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2026-01-01", "period_to": "2026-10-31"}).Expect(http.StatusCreated)
	var page struct {
		Statements []statement `json:"statements"`
		Next       *string     `json:"next"`
	}
	app.Get(w.path("/opcost-statements?per_page=1"), token).Expect(http.StatusOK).JSON(&page)
	if len(page.Statements) != 1 || page.Statements[0].Status != "draft" || page.Next == nil {
		t.Fatalf("first page: %+v", page)
	}
	app.Get(w.path("/opcost-statements?per_page=1&after="+*page.Next), token).Expect(http.StatusOK).JSON(&page)
	if len(page.Statements) != 1 || page.Statements[0].ID != st.ID || page.Statements[0].Status != "posted" {
		t.Fatalf("second page: %+v", page)
	}
}

// § 556 Abs. 3 BGB: the statement of 2024 was due by 2025-12-31; today
// (2026-11-22) a balance due is refused unless the delay was not the
// landlord's fault, and a credit still posts.
func TestDeadlineRefusesABalanceDueButNotACredit(t *testing.T) {
	w := newWorld(t)
	app, token := w.app, w.token
	we1, we2 := w.unit(t, "WE 1", 50), w.unit(t, "WE 2", 50)
	a := w.lease(t, we1, "A-1", "de", "Anna Schmidt", "2024-01-01", "", 10)
	b := w.lease(t, we2, "B-1", "de", "Bernd Meier", "2024-01-01", "", 100)
	w.pay(t, we1, a, 12*510)
	w.pay(t, we2, b, 12*600)
	// 2,000.00 by area: 1,000.00 each; A-1 paid 120.00 (owes 880.00), B-1
	// paid 1,200.00 (credit 200.00).
	w.bill(t, we1, "property_tax", "2024-06-01", 2000)
	var st statement
	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2024-01-01", "period_to": "2024-12-31"}).
		Expect(http.StatusCreated).JSON(&st)
	if st.Deadline == nil || *st.Deadline != "2025-12-31" {
		t.Fatalf("deadline %v", st.Deadline)
	}
	r := app.Post(w.path("/opcost-statements/"+st.ID+"/post"), token, map[string]any{"late_not_at_fault": false}).Expect(http.StatusUnprocessableEntity)
	has(t, "refusal", r.String(), `"deadline_passed"`, "2025-12-31", "§ 556 Abs. 3 BGB")
	if got := app.Get("/api/v1/properties/"+we2+"/compensations", token).Expect(http.StatusOK).String(); strings.Contains(got, "overpayment_refund") {
		t.Fatalf("refused, yet posted: %s", got)
	}
	// Credits only: B-1's credit posts, A-1's balance is excluded.
	app.Post(w.path("/opcost-statements/"+st.ID+"/post"), token, map[string]any{"credits_only": true}).Expect(http.StatusBadRequest)
	app.Post(w.path("/opcost-statements/"+st.ID+"/post"), token, map[string]any{"late_not_at_fault": false, "credits_only": true}).Expect(http.StatusOK).JSON(&st)
	for _, l := range st.Contracts {
		if l.ContractID == a && (!l.Excluded || l.ChargeID != nil) {
			t.Errorf("A-1: %+v", l)
		}
		if l.ContractID == b && l.CompensationID == nil {
			t.Errorf("B-1: %+v", l)
		}
	}
	if got := app.Get("/api/v1/properties/"+we1+"/charges?per_page=200", token).Expect(http.StatusOK).String(); strings.Contains(got, "Operating-cost statement") {
		t.Errorf("an excluded balance was charged: %s", got)
	}
	// Sent: A-1's letter and message say the balance is not claimed.
	app.Post(w.path("/opcost-statements/"+st.ID+"/send"), token, nil).Expect(http.StatusOK)
	has(t, "A-1's thread", strings.ReplaceAll(app.Get("/api/v1/properties/"+we1+"/messages?contract_id="+a, token).Expect(http.StatusOK).String(), "\u00a0", " "),
		"Ergebnis: Die Nachzahlung von 880,00 € wird nicht gefordert: Die Abrechnung erreicht Sie nach Ablauf der Abrechnungsfrist (§ 556 Abs. 3 Satz 3 BGB).")
	if de := mailtest.PDFText(t, app.Get(w.path("/opcost-statements/"+st.ID+"/contracts/"+a+"/pdf"), token).Expect(http.StatusOK).Body); de != "" {
		has(t, "A-1's letter", strings.Join(strings.Fields(strings.ReplaceAll(de, "\u00a0", " ")), " "),
			"Nachzahlung 880,00 € Die Nachzahlung von 880,00 € wird nicht gefordert")
	}

	// The same year on another building, the delay recorded as not the
	// landlord's fault: the balance due is charged.
	w2 := world{app: app, token: token}
	w2.building = id(t, app.Post("/api/v1/buildings", token, map[string]any{"name": "Hofweg 2", "country_code": "DE"}).Expect(http.StatusCreated))
	we3 := w2.unit(t, "WE 3", 70)
	c := w2.lease(t, we3, "C-1", "de", "Carla Weber", "2024-01-01", "", 10)
	w2.pay(t, we3, c, 12*510)
	w2.bill(t, we3, "water", "2024-02-01", 600)
	app.Post(w2.path("/opcost-statements"), token, map[string]any{"period_from": "2024-01-01", "period_to": "2024-12-31"}).
		Expect(http.StatusCreated).JSON(&st)
	app.Post(w2.path("/opcost-statements/"+st.ID+"/post"), token, nil).Expect(http.StatusUnprocessableEntity)
	app.Post(w2.path("/opcost-statements/"+st.ID+"/post"), token, map[string]any{"late_not_at_fault": true}).Expect(http.StatusOK)
	has(t, "charges of WE 3", app.Get("/api/v1/properties/"+we3+"/charges?per_page=200", token).Expect(http.StatusOK).String(),
		`"name":"Operating-cost statement 2024-01-01 – 2024-12-31"`, `"amount":480.00`)
}

// Bad input is a clear 4xx and posts nothing.
func TestBadInput(t *testing.T) {
	w := newWorld(t)
	app, token := w.app, w.token
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"waste": "by_weight"}}).Expect(http.StatusBadRequest)
	r := app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"heating": "heizkv", "rent": "area"}}).Expect(http.StatusBadRequest)
	has(t, "refusal", r.String(), "consumption_shares.heating: is required with heizkv", "keys.rent: not an operating-cost category")
	has(t, "keys", app.Get(w.path("/opcost-keys"), token).Expect(http.StatusOK).String(), `"heating":"area"`, `"waste":"area"`)

	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusUnprocessableEntity)
	we1 := w.unit(t, "WE 1", 80)
	w.unit(t, "WE ohne Fläche", nil)
	w.bill(t, we1, "cleaning", "2025-03-01", 300)
	r = app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusUnprocessableEntity)
	has(t, "refusal", r.String(), `"key_weight_missing"`, `WE ohne Fläche`)
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"cleaning": "persons"}}).Expect(http.StatusOK)
	a := w.lease(t, we1, "A-1", "de", "Anna Schmidt", "2025-01-01", "", 10)
	r = app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusUnprocessableEntity)
	has(t, "refusal", r.String(), `"household_missing"`, `A-1`)
	app.Post("/api/v1/contracts/"+a+"/household", token, map[string]any{"persons": 1, "from": "2025-01-01"}).Expect(http.StatusCreated)
	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-12-31", "period_to": "2025-01-01"}).Expect(http.StatusBadRequest)
	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2026-01-01"}).Expect(http.StatusBadRequest)
	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01"}).Expect(http.StatusBadRequest)
	var first, second statement
	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated).JSON(&first)
	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-06-01", "period_to": "2026-05-31"}).
		Expect(http.StatusCreated).JSON(&second)
	if got := app.Get("/api/v1/properties/"+we1+"/charges?per_page=200", token).Expect(http.StatusOK).String(); strings.Contains(got, "Operating-cost statement") {
		t.Errorf("a draft was charged: %s", got)
	}
	// Two drafts over the same months: once one is posted, the other is
	// refused and posts nothing.
	app.Post(w.path("/opcost-statements/"+first.ID+"/post"), token, nil).Expect(http.StatusOK)
	r = app.Post(w.path("/opcost-statements/"+second.ID+"/post"), token, nil).Expect(http.StatusConflict)
	has(t, "refusal", r.String(), `"period_overlaps_posted"`)
	if got := app.Get("/api/v1/properties/"+we1+"/charges?per_page=200", token).Expect(http.StatusOK).String(); strings.Count(got, "Operating-cost statement") != 1 {
		t.Errorf("want one statement charge: %s", got)
	}
	other := accountstest.NewUser(t, app).Token
	app.Post(w.path("/opcost-statements"), other, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).Expect(http.StatusForbidden)
}

// The units, share and direct keys (figures derived by hand): two flats
// with shares 600 and 400; X-1 all 2025, Y-1 from 2025-07-01 (184 of 365
// days), nothing prepaid.
//   - elevator 1,000.00 per unit: X-1 500.00; Y-1 500.00 × 184/365 =
//     252.054… = 252.05
//   - cleaning 500.00 by share: X-1 500.00 × 600/1000 = 300.00; Y-1
//     500.00 × 400/1000 × 184/365 = 100.821… = 100.82
//   - garden 200.00 recorded for Y-1's flat, direct: Y-1 200.00 × 184/365
//     = 100.82; X-1 nothing
func TestUnitsShareAndDirectKeys(t *testing.T) {
	w := newWorld(t)
	app, token := w.app, w.token
	x, y := w.unit(t, "WE X", 70), w.unit(t, "WE Y", 50)
	app.Put(w.path("/units/"+x), token, map[string]any{"share": 600}).Expect(http.StatusOK)
	app.Put(w.path("/units/"+y), token, map[string]any{"share": 400}).Expect(http.StatusOK)
	w.lease(t, x, "X-1", "de", "Xaver", "2025-01-01", "", 10)
	w.lease(t, y, "Y-1", "de", "Yvonne", "2025-07-01", "", 10)
	w.bill(t, x, "elevator", "2025-02-01", 1000)
	w.bill(t, x, "cleaning", "2025-02-01", 500)
	w.bill(t, y, "garden", "2025-09-01", 200)
	app.Put(w.path("/opcost-keys"), token, map[string]any{"keys": map[string]any{"elevator": "units", "cleaning": "share", "garden": "direct"}}).
		Expect(http.StatusOK)
	body := app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated).String()
	has(t, "statement", body,
		`"category":"elevator","key":"units","part":"all","percent":100,"measure":null,"building_total":1000.00,"unit_value":"1","total_value":"2","days":365,"period_days":365,"amount":500.00`,
		`"category":"elevator","key":"units","part":"all","percent":100,"measure":null,"building_total":1000.00,"unit_value":"1","total_value":"2","days":184,"period_days":365,"amount":252.05`,
		`"category":"cleaning","key":"share","part":"all","percent":100,"measure":null,"building_total":500.00,"unit_value":"600","total_value":"1000","days":365,"period_days":365,"amount":300.00`,
		`"category":"cleaning","key":"share","part":"all","percent":100,"measure":null,"building_total":500.00,"unit_value":"400","total_value":"1000","days":184,"period_days":365,"amount":100.82`,
		`"category":"garden","key":"direct","part":"all","percent":100,"measure":null,"building_total":200.00,"unit_value":"1","total_value":"1","days":184,"period_days":365,"amount":100.82`,
		`"category":"garden","key":"direct","total":200.00,"tenants":100.82,"landlord":99.18`,
		`"cost_total":800.00,"prepayments_paid":0.00`, `"cost_total":453.69,"prepayments_paid":0.00`)
}
