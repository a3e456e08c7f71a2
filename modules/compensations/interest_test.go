package compensations_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/payments/paymentstest"
)

// Germany (§ 551 Abs. 3 BGB): the deposit earns interest for the tenant,
// simple, to the day (act/365) from each day part of it was received to
// the settlement, at the rate entered on the settlement or configured on
// the contract; it is added to what goes back to the tenant. Today is
// 2026-11-22.
func TestGermanDepositEarnsInterestToTheDay(t *testing.T) {
	app, token := start(t)
	terms := []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950}, {"code": "CONTRACT_START_DATE", "value": "2026-08-01"},
		{"code": "DEPOSIT_AMOUNT", "value": 1900}}
	f := lease(t, app, token, "DE", "de", "DE-Z1", terms...)
	// The deposit in two parts: 1,000 on 1 August, 900 on 1 September.
	for _, p := range []map[string]any{{"amount": 1000, "paid_on": "2026-08-01"}, {"amount": 900, "paid_on": "2026-09-01"}} {
		p["method"], p["contract_id"] = "bank_transfer", f.contract
		app.Post(f.path("/payments"), token, p).Expect(http.StatusCreated)
	}
	app.Post("/api/v1/contracts/"+f.contract+"/terminate", token, map[string]any{"date": "2026-11-15"}).Expect(http.StatusOK)
	for _, bad := range []any{21, -1, 1.23456, "1.5", true} {
		res := app.Post(f.path("/compensations/deposit-settlements"), token, map[string]any{"contract_id": f.contract, "interest_rate": bad}).
			Expect(http.StatusBadRequest)
		if !strings.Contains(res.String(), "interest_rate: must be a number of percent per year") {
			t.Errorf("interest_rate %v: %s", bad, res.String())
		}
	}
	var st settlement
	res := app.Post(f.path("/compensations/deposit-settlements"), token, map[string]any{"contract_id": f.contract, "interest_rate": 1.5}).
		Expect(http.StatusCreated)
	res.JSON(&st)
	// 1,000.00 x 1.5 % x 113/365 = 4.6438 -> 4.64; 900.00 x 1.5 % x 82/365 = 3.0329 -> 3.03.
	exact(t, res, `"deposit_held":1900.00`, `"interest_rate":1.5`, `"interest":7.67`,
		`"interest_lines":[{"received_on":"2026-08-01","amount":1000.00,"days":113,"interest":4.64},{"received_on":"2026-09-01","amount":900.00,"days":82,"interest":3.03}]`,
		`"owed":0.00`, `"refund":1907.67`, `"still_owed":0.00`)
	var cp struct {
		Amount float64 `json:"amount"`
	}
	app.Get(f.path("/compensations/"+*st.CompensationID), token).Expect(http.StatusOK).JSON(&cp)
	if cp.Amount != 1907.67 {
		t.Errorf("the refund compensation is %v, want the deposit with its interest, 1907.67", cp.Amount)
	}
	text := strings.Join(strings.Fields(pdfText(t, app.Get("/api/v1/print-forms/deposit-settlements/"+st.ID, token).Expect(http.StatusOK).Body)), " ")
	for _, want := range []string{"Zinsen auf die Kaution",
		// The label wraps beside its figure.
		"1.000,00 € erhalten am 01.08.2026, 4,64 € 113 Tage bis 22.11.2026 zu 1,5 % jährlich (act/365)",
		"900,00 € erhalten am 01.09.2026, 3,03 € 82 Tage bis 22.11.2026 zu 1,5 % jährlich (act/365)",
		"Gezahlte Kaution 1.900,00 €", "Zinsen auf die Kaution + 7,67 €", "Rückzahlung an den Mieter 1.907,67 €"} {
		if !strings.Contains(text, want) {
			t.Errorf("the German statement lacks %q:\n%s", want, text)
		}
	}
	en := strings.Join(strings.Fields(pdfText(t, app.Get("/api/v1/print-forms/deposit-settlements/"+st.ID+"?locale=en", token).Expect(http.StatusOK).Body)), " ")
	for _, want := range []string{"€1,000.00 received on €4.64 2026-08-01, 113 days to 2026-11-22 at 1.5% a year (actual/365)",
		"Interest on the deposit + €7.67", "Refund to the tenant €1,907.67"} {
		if !strings.Contains(en, want) {
			t.Errorf("the English statement lacks %q:\n%s", want, en)
		}
	}

	// The rate configured on the contract (a money setting, changeable
	// after the end) applies when none is entered.
	g := lease(t, app, token, "DE", "de", "DE-Z2", terms...)
	app.Post(g.path("/payments"), token, map[string]any{"amount": 1900, "paid_on": "2026-08-01", "method": "bank_transfer", "contract_id": g.contract}).
		Expect(http.StatusCreated)
	app.Post("/api/v1/contracts/"+g.contract+"/terminate", token, map[string]any{"date": "2026-11-15"}).Expect(http.StatusOK)
	app.Put("/api/v1/contracts/"+g.contract, token, map[string]any{"deposit_interest_rate": 20.5}).Expect(http.StatusBadRequest)
	exact(t, app.Put("/api/v1/contracts/"+g.contract, token, map[string]any{"deposit_interest_rate": 0.25}).Expect(http.StatusOK),
		`"deposit_interest_rate":0.25`)
	// 1,900.00 x 0.25 % x 113/365 = 1.4705 -> 1.47.
	exact(t, app.Post(g.path("/compensations/deposit-settlements"), token, map[string]any{"contract_id": g.contract}).Expect(http.StatusCreated),
		`"interest_rate":0.25`, `"interest":1.47`, `"refund":1901.47`)
	// The ledger: the interest joined the deposit held, which the
	// settlements emptied; every other invariant holds too.
	paymentstest.CheckInvariants(t, app)
}

// France (loi 89-462 art. 22): the dépôt de garantie earns the tenant no
// interest; a rate entered is refused, and the statement says why none is
// paid.
func TestFrenchDepositEarnsNoInterest(t *testing.T) {
	app, token := start(t)
	f := lease(t, app, token, "FR", "fr", "FR-Z1", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 800},
		map[string]any{"code": "CONTRACT_START_DATE", "value": "2026-08-01"}, map[string]any{"code": "DEPOSIT_AMOUNT", "value": 800})
	app.Post(f.path("/payments"), token, map[string]any{"amount": 800, "paid_on": "2026-08-01", "method": "bank_transfer", "contract_id": f.contract}).
		Expect(http.StatusCreated)
	app.Put("/api/v1/contracts/"+f.contract, token, map[string]any{"deposit_interest_rate": 2}).Expect(http.StatusOK)
	app.Post("/api/v1/contracts/"+f.contract+"/terminate", token, map[string]any{"date": "2026-11-15"}).Expect(http.StatusOK)
	res := app.Post(f.path("/compensations/deposit-settlements"), token, map[string]any{"contract_id": f.contract, "interest_rate": 1}).
		Expect(http.StatusBadRequest)
	if !strings.Contains(res.String(), "interest_rate: the deposit earns the tenant no interest in FR (loi n° 89-462, art. 22)") {
		t.Errorf("a rate on a French deposit: %s", res.String())
	}
	var st settlement
	res = app.Post(f.path("/compensations/deposit-settlements"), token, map[string]any{"contract_id": f.contract}).Expect(http.StatusCreated)
	res.JSON(&st)
	exact(t, res, `"deposit_held":800.00`, `"interest_rate":null`, `"interest":0.00`, `"interest_lines":[]`, `"refund":800.00`)
	text := strings.Join(strings.Fields(pdfText(t, app.Get("/api/v1/print-forms/deposit-settlements/"+st.ID, token).Expect(http.StatusOK).Body)), " ")
	for _, want := range []string{"Intérêts du dépôt de garantie",
		"Néant : le dépôt de garantie ne porte pas intérêt au bénéfice du locataire (loi n° 89-462, art. 22).",
		"Dépôt de garantie versé 800,00 €", "Intérêts du dépôt de garantie + 0,00 €", "Restitution au locataire 800,00 €"} {
		if !strings.Contains(text, want) {
			t.Errorf("the French statement lacks %q:\n%s", want, text)
		}
	}
}
