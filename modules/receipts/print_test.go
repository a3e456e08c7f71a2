package receipts_test

import (
	"bytes"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
)

// The receipt prints as a PDF through modules/printforms: its number, the
// charge and the amount are in the text pdftotext reads back, in
// Ukrainian too; a voided receipt prints as void; a stranger gets 403.
func TestReceiptPrintForm(t *testing.T) {
	app, u, base := startPrinting(t)
	app.Post(base+"/charges", u.Token, map[string]any{"name": "Орендна плата", "amount": 1234.5, "due_date": "2026-11-03"}).Expect(http.StatusCreated)
	var p struct{ ID string }
	app.Post(base+"/payments", u.Token, map[string]any{"amount": 1234.5, "method": "cash"}).Expect(http.StatusCreated).JSON(&p)
	var l receiptList
	app.Get(base+"/receipts", u.Token).Expect(http.StatusOK).JSON(&l)
	r := l.Receipts[0]
	text := func(locale string) string {
		res := app.Get("/api/v1/print-forms/receipts/"+r.ID+"?locale="+locale, u.Token).Expect(http.StatusOK)
		if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
			t.Fatalf("content type %q", ct)
		}
		if cd := res.Header.Get("Content-Disposition"); !strings.Contains(cd, "receipt-2026-000001.pdf") {
			t.Errorf("disposition %q", cd)
		}
		cmd := exec.Command("pdftotext", "-layout", "-", "-")
		cmd.Stdin = bytes.NewReader(res.Body)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("pdftotext: %v", err)
		}
		return string(out)
	}
	for _, locale := range []string{"en", "de", "fr", "es", "uk"} {
		got := text(locale)
		amount := map[string]string{"en": "1,234.50", "de": "1.234,50", "fr": "1 234,50", "es": "1.234,50", "uk": "1 234,50"}[locale]
		for _, want := range []string{"2026-000001", "Орендна плата", amount} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: %q not in %q", locale, want, got)
			}
		}
	}
	app.Post(base+"/payments/"+p.ID+"/reverse", u.Token, map[string]any{"reason": "mistake"}).Expect(http.StatusOK)
	if got := text("en"); !strings.Contains(got, "This receipt has been voided") {
		t.Errorf("voided receipt without VOID: %q", got)
	}
	stranger := accountstest.NewUser(t, app)
	app.Get("/api/v1/print-forms/receipts/"+r.ID, stranger.Token).Expect(http.StatusForbidden)
	app.Get("/api/v1/print-forms/receipts/x", u.Token).Expect(http.StatusNotFound)
}
