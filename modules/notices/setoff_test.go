package notices_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/mail/mailtest"
)

// uuidLike is any UUID: no tenant-facing text may show one.
var uuidLike = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// A credited compensation and the deposit applied at the settlement are
// set-offs, not payments: the tenant gets a set-off statement (mail and
// PDF) in the contract's language that says no money was paid, never
// "we received your payment", with the landlord's description and no
// enum, code or id. A real payment still gets its receipt.
func TestSetOffsAreNotPayments(t *testing.T) {
	w := newWorld(t, time.Date(2026, 11, 2, 9, 0, 0, 0, berlin), "de", "2026-11-01", "2027-10-31")
	tok := w.landlord.Token
	prop := "/api/v1/properties/" + w.property
	w.at(t, time.Date(2026, 11, 2, 0, 0, 0, 0, berlin), 0, 30) // November's rent billed
	w.at(t, time.Date(2026, 11, 5, 0, 0, 0, 0, berlin), 7, 0)  // before the day's notices
	w.pay(t, 200, "2026-11-04")
	cp := created(t, w.app.Post(prop+"/compensations", tok, map[string]any{"contract_id": w.contract, "kind": "repair_by_tenant",
		"amount": 75.25, "description": "Boiler repaired by the tenant\n(invoice 17)"}))
	w.app.Post(prop+"/compensations/"+cp+"/credit", tok, nil).Expect(http.StatusOK)
	w.quiet(t)

	mails, err := w.srv.Wait(2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var receipt, setOff mailtest.Mail
	for _, raw := range mails {
		m := mailtest.Read(t, raw)
		m.Text = strings.ReplaceAll(m.Text, "\u00a0", " ")
		switch {
		case strings.HasPrefix(m.Subject(), "Quittung"):
			receipt = m
		case strings.HasPrefix(m.Subject(), "Verrechnungsmitteilung"):
			setOff = m
		default:
			t.Errorf("a mail %q:\n%s", m.Subject(), m.Text)
		}
	}
	if !strings.Contains(receipt.Text, "wir haben Ihre Zahlung über 200,00 € vom 04.11.2026 erhalten") {
		t.Errorf("the receipt reads:\n%s", receipt.Text)
	}
	for _, want := range []string{"75,25 €", "verrechnet", "eine Zahlung ist nicht erfolgt"} {
		if !strings.Contains(setOff.Text, want) {
			t.Errorf("the set-off mail lacks %q:\n%s", want, setOff.Text)
		}
	}
	for _, bad := range []string{"erhalten", "Vielen Dank", "Quittung", "repair_by_tenant", "Compensation"} {
		if strings.Contains(setOff.Text, bad) {
			t.Errorf("the set-off mail says %q:\n%s", bad, setOff.Text)
		}
	}
	if uuidLike.MatchString(setOff.Text) {
		t.Errorf("the set-off mail shows an id:\n%s", setOff.Text)
	}
	if len(setOff.Files) != 1 {
		t.Fatalf("the set-off mail has %d attachments", len(setOff.Files))
	}
	for _, pdf := range setOff.Files {
		text := strings.ReplaceAll(mailtest.PDFText(t, pdf), "\u00a0", " ")
		if text == "" {
			continue
		}
		for _, want := range []string{"Verrechnungsmitteilung", "Es wurde kein Geld gezahlt", "Verrechnet am", "Mieter",
			"Boiler repaired by the tenant (invoice 17)", "75,25 €", "Offener Betrag aus dem Vertrag nach dieser Verrechnung"} {
			if !strings.Contains(text, want) {
				t.Errorf("the set-off statement lacks %q:\n%s", want, text)
			}
		}
		for _, bad := range []string{"Zahlungsquittung", "Erhalten von", "Zahlungsart", "Sonstige", "repair_by_tenant"} {
			if strings.Contains(text, bad) {
				t.Errorf("the set-off statement says %q:\n%s", bad, text)
			}
		}
		if uuidLike.MatchString(text) {
			t.Errorf("the set-off statement shows an id:\n%s", text)
		}
	}
}
