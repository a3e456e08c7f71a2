package opcosts_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit/golden"
)

// A posted statement corrected: the correction books only the difference
// per contract, the first statement is superseded; the letters go to the
// tenants as messages with the PDF; a new prepayment is confirmed with a
// letter. Figures by hand: two flats of 50 m², A-1 and B-1 all 2025,
// 100.00 prepaid a month each (1,200.00). Property tax 2,000.00: 1,000.00
// each, a credit of 200.00 each. A cleaning bill of 600.00 found later:
// 1,300.00 each, a balance of 100.00 each; the correction books 100.00 −
// (−200.00) = 300.00 each. Proposed prepayment (1,200.00 + 100.00) / 12 =
// 108.33, 108.00.
func TestCorrectionPostsOnlyTheDifferenceAndTheLettersGo(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	app, token := w.app, w.token
	we1, we2 := w.unit(t, "WE 1", 50), w.unit(t, "WE 2", 50)
	a := w.lease(t, we1, "A-1", "de", "Anna Schmidt", "2025-01-01", "", 100)
	b := w.lease(t, we2, "B-1", "de", "Bernd Meier", "2025-01-01", "", 100)
	w.pay(t, we1, a, 12*600)
	w.pay(t, we2, b, 12*600)
	w.bill(t, we1, "property_tax", "2025-06-01", 2000)
	var first statement
	app.Post(w.path("/opcost-statements"), token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated).JSON(&first)
	// A draft is neither corrected, nor sent, nor followed by a prepayment.
	app.Post(w.path("/opcost-statements/"+first.ID+"/correction"), token, nil).Expect(http.StatusConflict)
	app.Post(w.path("/opcost-statements/"+first.ID+"/send"), token, nil).Expect(http.StatusConflict)
	app.Post(w.path("/opcost-statements/"+first.ID+"/contracts/"+a+"/prepayment"), token, map[string]any{"from": "2027-01-01"}).
		Expect(http.StatusConflict)
	app.Post(w.path("/opcost-statements/"+first.ID+"/post"), token, nil).Expect(http.StatusOK)
	has(t, "credits", app.Get("/api/v1/properties/"+we1+"/compensations", token).Expect(http.StatusOK).String(), `"amount":200.00`)

	w.bill(t, we2, "cleaning", "2025-05-01", 600)
	r := app.Post(w.path("/opcost-statements/"+first.ID+"/correction"), token, nil).Expect(http.StatusCreated)
	has(t, "correction", r.String(), `"corrects_id":"`+first.ID+`"`, `"status":"draft"`,
		`"cost_total":1300.00,"prepayments_paid":1200.00,"prepayments_charged":1200.00,"result":100.00,"charge_id":null,"compensation_id":null,"excluded":false,"previously_booked":-200.00,"prepayment_monthly":100.00,"proposed_prepayment":108.00`)
	var corr, stale statement
	r.JSON(&corr)
	// A body names co2; null keeps the first statement's, as no body does.
	has(t, "a body without co2", app.Post(w.path("/opcost-statements/"+first.ID+"/correction"), token, map[string]any{}).
		Expect(http.StatusBadRequest).String(), "co2: is required in a body")
	app.Post(w.path("/opcost-statements/"+first.ID+"/correction"), token, map[string]any{"co2": nil}).Expect(http.StatusCreated).JSON(&stale)
	app.Post(w.path("/opcost-statements/"+corr.ID+"/post"), token, nil).Expect(http.StatusOK).JSON(&corr)
	for _, l := range corr.Contracts {
		if l.ChargeID == nil || l.CompensationID != nil {
			t.Errorf("correction of %s: %+v", l.ContractID, l)
		}
	}
	for _, p := range []string{we1, we2} {
		has(t, "charges", app.Get("/api/v1/properties/"+p+"/charges?per_page=200", token).Expect(http.StatusOK).String(),
			`"name":"Operating-cost statement 2025-01-01 – 2025-12-31 (correction)"`, `"amount":300.00`)
	}
	has(t, "first statement", app.Get(w.path("/opcost-statements/"+first.ID), token).Expect(http.StatusOK).String(), `"status":"superseded"`)
	r = app.Post(w.path("/opcost-statements/"+stale.ID+"/post"), token, nil).Expect(http.StatusConflict)
	has(t, "refusal", r.String(), `"already_corrected"`)
	app.Post(w.path("/opcost-statements/"+first.ID+"/correction"), token, nil).Expect(http.StatusConflict)
	if got := app.Get("/api/v1/properties/"+we1+"/charges?per_page=200", token).Expect(http.StatusOK).String(); strings.Count(got, "(correction)") != 1 {
		t.Errorf("want one correction charge: %s", got)
	}

	// Sent: a message to each tenant with the letter; once.
	var sent statement
	app.Post(w.path("/opcost-statements/"+corr.ID+"/send"), token, nil).Expect(http.StatusOK).JSON(&sent)
	msgs := strings.ReplaceAll(app.Get("/api/v1/properties/"+we1+"/messages?contract_id="+a, token).Expect(http.StatusOK).String(), "\u00a0", " ")
	has(t, "A-1's thread", msgs, `"subject":"Betriebskostenabrechnung 01.01.2025 – 31.12.2025"`,
		"anbei erhalten Sie die Betriebskostenabrechnung für den Zeitraum vom 01.01.2025 bis zum 31.12.2025 für die Wohnung WE 1 (Mietvertrag A-1). Ergebnis: Nachzahlung von 300,00 €.")
	if !strings.Contains(msgs, `Nachzahlung von 300,00 €.\n\nMit freundlichen Grüßen\nTest User`) {
		t.Errorf("want the letter signed: %s", msgs)
	}
	app.Post(w.path("/opcost-statements/"+corr.ID+"/send"), token, nil).Expect(http.StatusOK)
	if got := app.Get("/api/v1/properties/"+we1+"/messages?contract_id="+a, token).Expect(http.StatusOK).String(); strings.Count(got, "Betriebskostenabrechnung 01.01.2025") != 1 {
		t.Errorf("sent twice: %s", got)
	}
	var docs struct {
		Documents []struct {
			ID         string  `json:"id"`
			Title      string  `json:"title"`
			ContractID *string `json:"contract_id"`
		} `json:"documents"`
	}
	app.Get("/api/v1/properties/"+we2+"/documents?per_page=200", token).Expect(http.StatusOK).JSON(&docs)
	doc := ""
	for _, d := range docs.Documents {
		if d.Title == "Betriebskostenabrechnung 01.01.2025 – 31.12.2025" && d.ContractID != nil && *d.ContractID == b {
			if doc != "" {
				t.Fatalf("the letter stored twice: %+v", docs)
			}
			doc = d.ID
		}
	}
	// The message carries that document.
	has(t, "B-1's thread", app.Get("/api/v1/properties/"+we2+"/messages?contract_id="+b, token).Expect(http.StatusOK).String(), `"attachments":["`+doc+`"]`)
	letter := mailtest.PDFText(t, app.Get("/api/v1/properties/"+we2+"/documents/"+doc+"/content", token).Expect(http.StatusOK).Body)
	if letter != "" {
		has(t, "sent letter", strings.Join(strings.Fields(strings.ReplaceAll(letter, "\u00a0", " ")), " "),
			"Bernd Meier", "Nachzahlung 100,00 €", "Mit der vorigen Abrechnung 200,00 € bereits gutgeschrieben", "Nachzahlung aus der 300,00 € Berichtigung")
	}
	golden.Dir(t, filepath.Join("testdata", "golden", "correction"), map[string]string{"statement.de.pdf.txt": letter})

	// The new prepayment of A-1, confirmed from January 2027: the
	// contract's prepayment changes and the tenant gets the letter.
	r = app.Post(w.path("/opcost-statements/"+corr.ID+"/contracts/"+a+"/prepayment"), token, map[string]any{"from": "2027-01-01"}).Expect(http.StatusOK)
	has(t, "statement", r.String(), `"proposed_prepayment":108.00,"proposal_applied_from":"2027-01-01"`)
	app.Post(w.path("/opcost-statements/"+corr.ID+"/contracts/"+a+"/prepayment"), token, map[string]any{"from": "2027-02-01"}).Expect(http.StatusConflict)
	has(t, "contract", app.Get("/api/v1/contracts/"+a, token).Expect(http.StatusOK).String(), `"code":"UTILITY_PREPAYMENT_AMOUNT","value":108`)
	has(t, "expenses", app.Get("/api/v1/properties/"+we1+"/expenses?per_page=200", token).Expect(http.StatusOK).String(),
		`"amount":108.00`, `"start_date":"2027-01-01"`, `"end_date":"2026-12-31"`)
	has(t, "A-1's thread", strings.ReplaceAll(app.Get("/api/v1/properties/"+we1+"/messages?contract_id="+a, token).Expect(http.StatusOK).String(), "\u00a0", " "),
		`"subject":"Anpassung Ihrer Betriebskostenvorauszahlung ab dem 01.01.2027"`,
		"passen wir Ihre monatliche Betriebskostenvorauszahlung nach § 560 Abs. 4 BGB an: Ab dem 01.01.2027 beträgt sie 108,00 € statt bisher 100,00 €.")
	// A month already billed, a bad day, another statement's contract.
	r = app.Post(w.path("/opcost-statements/"+corr.ID+"/contracts/"+b+"/prepayment"), token, map[string]any{"from": "2025-06-01"}).Expect(http.StatusConflict)
	has(t, "refusal", r.String(), `"already_billed"`)
	app.Post(w.path("/opcost-statements/"+corr.ID+"/contracts/"+b+"/prepayment"), token, map[string]any{"from": "2027-01-15"}).Expect(http.StatusBadRequest)
	app.Post(w.path("/opcost-statements/"+corr.ID+"/contracts/"+we1+"/prepayment"), token, map[string]any{"from": "2027-01-01"}).Expect(http.StatusNotFound)
	has(t, "B-1's statement line", app.Get(w.path("/opcost-statements/"+corr.ID), token).Expect(http.StatusOK).String(), `"proposal_applied_from":null`)
}
