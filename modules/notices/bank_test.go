package notices_test

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/propman/propman/platform/testkit/requires"
)

var blanks = regexp.MustCompile(`\s+`)

// pdfText is the PDF as poppler's pdftotext reads it, every run of white
// space (no-break spaces too) one space.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	cmd := exec.Command(requires.Program(t, "pdftotext", "apt-get install poppler-utils"), "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.TrimSpace(blanks.ReplaceAllString(strings.ReplaceAll(string(out), "\u00a0", " "), " "))
}

// qrOf renders the PDF's first page with poppler's pdftoppm and decodes
// the QR code on it with ZXing's Go port, a reader that is not the
// library that drew it. It returns the text and the error correction
// level, or "" when the page has no QR code.
func qrOf(t *testing.T, pdf []byte) (string, string) {
	t.Helper()
	dir := t.TempDir()
	in := filepath.Join(dir, "letter.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	ppm := requires.Program(t, "pdftoppm", "apt-get install poppler-utils")
	if out, err := exec.Command(ppm, "-r", "150", "-png", "-f", "1", "-l", "1", "-singlefile", in, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v: %s", err, out)
	}
	f, err := os.Open(filepath.Join(dir, "page.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{
		gozxing.DecodeHintType_CHARACTER_SET: "UTF-8", gozxing.DecodeHintType_TRY_HARDER: true})
	if err != nil {
		return "", ""
	}
	return res.GetText(), fmt.Sprint(res.GetResultMetadata()[gozxing.ResultMetadataType_ERROR_CORRECTION_LEVEL])
}

func (w *world) document(t *testing.T, id string) []byte {
	t.Helper()
	return w.app.Get("/api/v1/properties/"+w.property+"/documents/"+id+"/content", w.landlord.Token).Expect(http.StatusOK).Body
}

func has(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, s := range want {
		if !strings.Contains(text, s) {
			t.Errorf("%s lacks %q:\n%s", what, s, text)
		}
	}
}

// What each language's letters say about where to pay.
var whereToPay = map[string]struct {
	mailBank   string   // the account's lines in a mail, reference included
	remittance string   // the payment reference in the QR code
	pdf        []string // the rent call's letter
	demand     []string // the step-3 letter
}{
	"de": {
		mailBank: "Bitte überweisen Sie den Betrag auf folgendes Konto:\nKontoinhaber: Hausverwaltung Schmidt GmbH\n" +
			"IBAN: DE89 3704 0044 0532 0130 00\nBIC: COBADEFFXXX\nKreditinstitut: Commerzbank",
		remittance: "Miete 12/2026 Vertrag L-7",
		pdf: []string{"Zahlungsaufforderung", "Vertrag Nr. L-7", "Fällig am 03.12.2026", "Miete, Vertrag L-7 12.2026 950,00 €", "Gesamt 950,00 €",
			"Bankverbindung", "Bitte überweisen Sie den Betrag auf folgendes Konto:", "Kontoinhaber Hausverwaltung Schmidt GmbH",
			"IBAN DE89 3704 0044 0532 0130 00", "BIC COBADEFFXXX", "Kreditinstitut Commerzbank", "Verwendungszweck Miete 12/2026 Vertrag L-7",
			"Mit Ihrer Banking-App scannen und überweisen (GiroCode)."},
		demand: []string{"Letzte Mahnung", "Bankverbindung", "Kontoinhaber Hausverwaltung Schmidt GmbH", "IBAN DE89 3704 0044 0532 0130 00",
			"BIC COBADEFFXXX", "Kreditinstitut Commerzbank"},
	},
	"fr": {
		mailBank: "Merci d’effectuer le virement sur le compte suivant :\nTitulaire du compte : Hausverwaltung Schmidt GmbH\n" +
			"IBAN : DE89 3704 0044 0532 0130 00\nBIC : COBADEFFXXX\nBanque : Commerzbank",
		remittance: "Loyer 12/2026 bail L-7",
		pdf: []string{"Avis d’échéance", "Date d’échéance 03/12/2026", "950,00 €", "Coordonnées bancaires",
			"Merci d’effectuer le virement sur le compte suivant :", "Titulaire du compte Hausverwaltung Schmidt GmbH",
			"IBAN DE89 3704 0044 0532 0130 00", "BIC COBADEFFXXX", "Banque Commerzbank", "Libellé du virement Loyer 12/2026 bail L-7",
			"Scannez ce code avec votre application bancaire pour payer (QR code EPC)."},
		demand: []string{"Mise en demeure de payer", "Coordonnées bancaires", "Titulaire du compte Hausverwaltung Schmidt GmbH",
			"IBAN DE89 3704 0044 0532 0130 00", "BIC COBADEFFXXX", "Banque Commerzbank"},
	},
	"en": {
		mailBank: "Please pay by bank transfer to the following account:\nAccount holder: Hausverwaltung Schmidt GmbH\n" +
			"IBAN: DE89 3704 0044 0532 0130 00\nBIC: COBADEFFXXX\nBank: Commerzbank",
		remittance: "Rent 12/2026 agreement L-7",
		pdf: []string{"Rent due notice", "Due on 2026-12-03", "€950.00", "Bank details", "Please pay by bank transfer to the following account:",
			"Account holder Hausverwaltung Schmidt GmbH", "IBAN DE89 3704 0044 0532 0130 00", "BIC COBADEFFXXX", "Bank Commerzbank",
			"Payment reference Rent 12/2026 agreement L-7", "Scan with your banking app to pay (EPC QR code)."},
		demand: []string{"Final demand for payment", "Bank details", "Account holder Hausverwaltung Schmidt GmbH",
			"IBAN DE89 3704 0044 0532 0130 00", "BIC COBADEFFXXX", "Bank Commerzbank"},
	},
}

// The rent call says where to pay, in the contract's language: its mail
// lists the account and the payment reference, its letter (attached, and
// served by GET /contracts/{id}/rent-call) prints them with an EPC QR code
// that a reader other than the writer decodes, line by line, into the
// payment; every reminder's mail names the account, and the step-3
// letter prints it.
func TestRentCallAndRemindersSayWhereToPay(t *testing.T) {
	for _, locale := range []string{"de", "fr", "en"} {
		t.Run(locale, func(t *testing.T) {
			want := whereToPay[locale]
			w := newWorld(t, time.Date(2026, 11, 26, 10, 0, 0, 0, berlin), locale, "2026-12-01", "2027-11-30")
			w.app.Post("/api/v1/bank-accounts", w.landlord.Token, map[string]any{"holder": "Hausverwaltung Schmidt GmbH",
				"iban": "de89 3704 0044 0532 0130 00", "bic": "COBADEFFXXX", "bank_name": "Commerzbank"}).Expect(http.StatusCreated)
			w.patch("/api/v1/contracts/"+w.contract+"/notice-settings", map[string]any{"reminder_step2_days": 1, "reminder_step3_days": 1}).Expect(http.StatusOK)
			day := time.Date(2026, 12, 1, 0, 0, 0, 0, berlin)
			w.at(t, day, 0, 30)
			w.at(t, day, 8, 0)
			msgs := w.messages(t)
			if len(msgs) != 1 {
				t.Fatalf("messages after the rent call: %+v", msgs)
			}
			call := msgs[0]
			labels := strings.Split(want.mailBank, "\n")
			ref := map[string]string{"de": "Verwendungszweck: ", "fr": "Libellé du virement : ", "en": "Payment reference: "}[locale]
			has(t, "rent call mail", call.Body, want.mailBank+"\n"+ref+want.remittance)
			if len(call.Attachments) != 1 {
				t.Fatalf("rent call attachments: %v", call.Attachments)
			}
			pdf := w.document(t, call.Attachments[0])
			has(t, "rent call letter", pdfText(t, pdf), want.pdf...)
			payload, level := qrOf(t, pdf)
			wantQR := []string{"BCD", "002", "1", "SCT", "COBADEFFXXX", "Hausverwaltung Schmidt GmbH", "DE89370400440532013000",
				"EUR950.00", "", "", want.remittance}
			got := strings.Split(payload, "\n")
			if len(got) != len(wantQR) {
				t.Fatalf("QR code: %q, want the lines %q", payload, wantQR)
			}
			for i := range wantQR {
				if got[i] != wantQR[i] {
					t.Errorf("QR line %d: %q, want %q", i+1, got[i], wantQR[i])
				}
			}
			if level != "M" {
				t.Errorf("QR error correction level %q, want M", level)
			}

			// The same letter on request; nothing due on another day.
			path := "/api/v1/contracts/" + w.contract + "/rent-call?due=2026-12-03"
			res := w.app.Get(path, w.landlord.Token).Expect(http.StatusOK)
			has(t, "GET rent-call", pdfText(t, res.Body), want.pdf...)
			if again, _ := qrOf(t, res.Body); again != payload {
				t.Errorf("GET rent-call QR %q, the mail's %q", again, payload)
			}
			w.app.Get("/api/v1/contracts/"+w.contract+"/rent-call?due=2026-12-04", w.landlord.Token).Expect(http.StatusNotFound)
			w.app.Get("/api/v1/contracts/"+w.contract+"/rent-call?due=soon", w.landlord.Token).Expect(http.StatusBadRequest)
			w.app.Get("/api/v1/contracts/"+w.contract+"/rent-call", w.landlord.Token).Expect(http.StatusBadRequest)

			// Unpaid: the ladder's three steps, a day apart.
			for d := 4; d <= 6; d++ {
				w.at(t, time.Date(2026, 12, d, 0, 0, 0, 0, berlin), 0, 30)
				w.at(t, time.Date(2026, 12, d, 0, 0, 0, 0, berlin), 8, 0)
			}
			msgs = w.messages(t)
			if len(msgs) != 4 {
				t.Fatalf("want the rent call and 3 reminders, got %d messages", len(msgs))
			}
			for i, m := range msgs[1:] {
				has(t, fmt.Sprintf("reminder %d", i+1), m.Body, want.mailBank)
				for _, l := range labels[1:] {
					if strings.Count(m.Body, l) != 1 {
						t.Errorf("reminder %d: %q %d times", i+1, l, strings.Count(m.Body, l))
					}
				}
			}
			last := msgs[3]
			if len(last.Attachments) != 1 {
				t.Fatalf("step 3 attachments: %v", last.Attachments)
			}
			has(t, "step-3 letter", pdfText(t, w.document(t, last.Attachments[0])), want.demand...)
		})
	}
}

// Without a bank account nothing about a bank is written: no lines in the
// mail, no rows or QR code in the letter.
func TestRentCallWithoutBankAccount(t *testing.T) {
	w := newWorld(t, time.Date(2026, 11, 26, 10, 0, 0, 0, berlin), "de", "2026-12-01", "2027-11-30")
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, berlin)
	w.at(t, day, 0, 30)
	w.at(t, day, 8, 0)
	msgs := w.messages(t)
	if len(msgs) != 1 || len(msgs[0].Attachments) != 1 {
		t.Fatalf("messages: %+v", msgs)
	}
	for _, word := range []string{"IBAN", "Kontoinhaber", "Verwendungszweck", "Bankverbindung"} {
		if strings.Contains(msgs[0].Body, word) {
			t.Errorf("mail without an account says %q:\n%s", word, msgs[0].Body)
		}
	}
	if strings.Contains(msgs[0].Body, "\n\n\n") {
		t.Errorf("mail without an account has an empty paragraph:\n%q", msgs[0].Body)
	}
	pdf := w.document(t, msgs[0].Attachments[0])
	text := pdfText(t, pdf)
	has(t, "letter without an account", text, "Zahlungsaufforderung", "Fällig am 03.12.2026", "Gesamt 950,00 €")
	for _, word := range []string{"IBAN", "Kontoinhaber", "Bankverbindung", "GiroCode"} {
		if strings.Contains(text, word) {
			t.Errorf("letter without an account says %q", word)
		}
	}
	if payload, _ := qrOf(t, pdf); payload != "" {
		t.Errorf("letter without an account has a QR code: %q", payload)
	}
}
