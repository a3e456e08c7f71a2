package notices_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/mail/mailtest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/golden"
)

// A termination is confirmed to the tenant by a letter with the end date,
// in the contract's language: the mail and its PDF (also served by
// GET /print-forms/contracts/{id}/termination) say the same, once.
func TestTerminationIsConfirmedByALetter(t *testing.T) {
	for _, tc := range []struct {
		locale, subject string
		mail, pdf       []string
	}{
		{"de", "Bestätigung der Kündigung – Vertrag Nr. L-7",
			[]string{"Hiermit bestätigen wir die Kündigung des Mietvertrags Nr. L-7 über das Mietobjekt Flat 3 (Lindenstraße 5, 10969 Berlin).",
				"Das Mietverhältnis endet am 31.03.2027.", "Ihre Kündigung ist uns am 20.11.2026 zugegangen.", "Angegebener Grund: Umzug ins Ausland", "über die Kaution wird nach der Rückgabe abgerechnet"},
			[]string{"Bestätigung der Kündigung", "Vertrag Nr. L-7", "Datum 26.11.2026", "Mietende 31.03.2027",
				"Mieter Anna Schmidt, Kastanienallee 12, 10435 Berlin", "Mietobjekt Flat 3, Lindenstraße 5, 10969 Berlin",
				"Das Mietverhältnis endet am 31.03.2027.", "Ihre Kündigung ist uns am 20.11.2026 zugegangen.", "Unterschrift – Vermieter"}},
		{"fr", "Confirmation de la résiliation du bail – Contrat n° L-7",
			[]string{"Nous vous confirmons par la présente la résiliation du contrat de location n° L-7 portant sur le logement Flat 3 (Lindenstraße 5, 10969 Berlin).",
				"Le bail prendra fin le 31/03/2027.", "Nous avons bien reçu votre congé le 20/11/2026.", "Motif indiqué : Umzug ins Ausland", "article 22 de la loi n° 89-462"},
			[]string{"Confirmation de la résiliation du bail", "Date 26/11/2026", "Date de fin 31/03/2027",
				"Le bail prendra fin le 31/03/2027.", "Nous avons bien reçu votre congé le 20/11/2026.", "Signature – Bailleur"}},
		{"en", "Confirmation of termination – Contract No. L-7",
			[]string{"We hereby confirm the termination of rental contract No. L-7 for the property Flat 3 (Lindenstraße 5, 10969 Berlin).",
				"The tenancy ends on 2027-03-31.", "We received your notice of termination on 2026-11-20.", "Reason given: Umzug ins Ausland"},
			[]string{"Confirmation of termination", "Date 2026-11-26", "End date 2027-03-31", "The tenancy ends on 2027-03-31.",
				"We received your notice of termination on 2026-11-20.",
				"Signature – Landlord"}},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			w := newWorld(t, time.Date(2026, 11, 26, 10, 0, 0, 0, berlin), tc.locale, "2026-12-01", "2027-11-30")
			tok := w.landlord.Token
			w.app.Put("/api/v1/contragents/"+w.tenant, tok, map[string]any{"address": "Kastanienallee 12, 10435 Berlin"}).Expect(http.StatusOK)
			form := "/api/v1/print-forms/contracts/" + w.contract + "/termination"
			w.app.Get(form, tok).Expect(http.StatusConflict)
			terminate := "/api/v1/contracts/" + w.contract + "/terminate"
			for _, bad := range []map[string]any{
				{"date": "2027-03-31", "terminated_by": "bank"},
				{"date": "2027-03-31", "notice_received_on": "2026-11-20"},
				{"date": "2027-03-31", "terminated_by": "landlord", "notice_received_on": "2026-11-20"},
				{"date": "2027-03-31", "terminated_by": "tenant", "notice_received_on": "2026-11-27"},
			} {
				w.app.Post(terminate, tok, bad).Expect(http.StatusBadRequest)
			}
			var out struct {
				Status           string  `json:"status"`
				TerminatedBy     *string `json:"terminated_by"`
				NoticeReceivedOn *string `json:"notice_received_on"`
			}
			w.app.Post(terminate, tok, map[string]any{"date": "2027-03-31", "reason": "Umzug ins Ausland",
				"terminated_by": "Tenant", "notice_received_on": "2026-11-20"}).Expect(http.StatusOK).JSON(&out)
			if out.Status != "ending" || out.TerminatedBy == nil || *out.TerminatedBy != "tenant" || out.NoticeReceivedOn == nil || *out.NoticeReceivedOn != "2026-11-20" {
				t.Errorf("the terminated contract: %+v", out)
			}
			w.quiet(t)
			mails, err := w.srv.Wait(1, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if len(mails) != 1 {
				t.Fatalf("%d mails, want the one confirmation", len(mails))
			}
			m := mailtest.Read(t, mails[0])
			if m.Subject() != tc.subject {
				t.Errorf("subject %q, want %q", m.Subject(), tc.subject)
			}
			text := strings.Join(strings.Fields(m.Text), " ")
			for _, want := range tc.mail {
				if !strings.Contains(text, want) {
					t.Errorf("the mail lacks %q:\n%s", want, m.Text)
				}
			}
			if len(m.Files) != 1 {
				t.Fatalf("%d attachments, want the letter", len(m.Files))
			}
			served := w.app.Get(form, tok).Expect(http.StatusOK)
			var attached []byte
			for _, b := range m.Files {
				attached = b
			}
			for name, pdf := range map[string][]byte{"attached": attached, "served": served.Body} {
				got := strings.Join(strings.Fields(mailtest.PDFText(t, pdf)), " ")
				if got == "" {
					t.Skip("no PDF reader (pdftotext) installed")
				}
				for _, want := range append(tc.pdf, "Test User") {
					if !strings.Contains(got, want) {
						t.Errorf("the %s letter lacks %q:\n%s", name, want, got)
					}
				}
			}
			// The whole letter as the tenant reads it (rewrite with -update).
			golden.Dir(t, filepath.Join("testdata", "golden", "termination", tc.locale), map[string]string{
				"mail.txt": "Subject: " + m.Subject() + "\n\n" + m.Text, "letter.pdf.txt": mailtest.PDFText(t, attached)})
			// The confirmation is one message of the thread, with the letter.
			n := 0
			for _, msg := range w.messages(t) {
				if msg.Subject == tc.subject {
					n++
					if len(msg.Attachments) != 1 {
						t.Errorf("the message has %d attachments", len(msg.Attachments))
					}
				}
			}
			if n != 1 {
				t.Errorf("%d confirmations in the thread", n)
			}
			w.app.Do(testkit.Request{Method: http.MethodGet, Path: form + "?locale=xx", Token: tok}).Expect(http.StatusBadRequest)
		})
	}
}
