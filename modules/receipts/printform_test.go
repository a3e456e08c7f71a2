package receipts_test

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

var blanks = regexp.MustCompile(`\s+`)

// receiptText is the receipt's PDF in locale as pdftotext -layout reads
// it, every run of white space (no-break spaces too) one space.
func receiptText(t *testing.T, app *testkit.App, token, id, locale string) string {
	t.Helper()
	res := app.Get("/api/v1/print-forms/receipts/"+id+"?locale="+locale, token).Expect(http.StatusOK)
	if dir := os.Getenv("PROBE_DIR"); dir != "" {
		_ = os.WriteFile(dir+"/receipt-"+id[len(id)-4:]+"-"+locale+".pdf", res.Body, 0o644)
	}
	cmd := exec.Command(requires.Program(t, "pdftotext", "apt-get install poppler-utils"), "-layout", "-enc", "UTF-8", "-", "-")
	cmd.Stdin = bytes.NewReader(res.Body)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return blanks.ReplaceAllString(strings.ReplaceAll(string(out), "\u00a0", " "), " ")
}

// startPrinting is an app, a landlord and one of their properties' API
// path for a print-form test; it skips without pdftotext and checks the
// ledger's invariants at the end.
func startPrinting(t *testing.T) (*testkit.App, accountstest.User, string) {
	t.Helper()
	requires.Program(t, "pdftotext", "apt-get install poppler-utils")
	app := testkit.Start(t)
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	u := accountstest.NewUser(t, app)
	return app, u, "/api/v1/properties/" + newProperty(t, app, u.Token)
}

// A receipt of a contract's payment says when, how and with which
// reference the money was paid, for which contract, names the charges the
// service made in the receipt's language (the deposit and the rent) and
// shows what the contract still owed right after this payment: a later
// payment, a later charge and the reversal of the later payment do not
// change it. Checked in German and English, and the translated method and
// charge in French, Spanish and Ukrainian.
func TestReceiptPrintFormOfAContractPayment(t *testing.T) {
	app, u, base := startPrinting(t)
	prop := strings.TrimPrefix(base, "/api/v1/properties/")
	var tenant, contract struct{ ID string }
	app.Post("/api/v1/contragents", u.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tom Mieter"}).
		Expect(http.StatusCreated).JSON(&tenant)
	app.Post("/api/v1/contracts", u.Token, map[string]any{"property_id": prop, "tenant_id": tenant.ID, "number": "2026/007", "locale": "de",
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950}, {"code": "CONTRACT_START_DATE", "value": "2026-11-01"},
			{"code": "DE_KAUTION_MONTHS", "value": 2}}}).Expect(http.StatusCreated).JSON(&contract)
	app.Post("/api/v1/contracts/"+contract.ID+"/activate", u.Token, nil).Expect(http.StatusOK)
	app.Post(base+"/expenses/refresh-all", u.Token, nil).Expect(http.StatusOK)
	// The deposit (1,900, due on the start) and November's rent (950):
	// 2,000 pays the deposit and 100 of the rent; 850 stays owed.
	var p1, p2 struct{ ID string }
	app.Post(base+"/payments", u.Token, map[string]any{"amount": 2000, "method": "bank_transfer", "contract_id": contract.ID,
		"paid_on": "2026-11-20", "reference": "Kaution und Miete 11/2026"}).Expect(http.StatusCreated).JSON(&p1)
	var l receiptList
	app.Get(base+"/receipts", u.Token).Expect(http.StatusOK).JSON(&l)
	if l.Total != 1 {
		t.Fatalf("receipts %+v", l)
	}
	first := l.Receipts[0]

	// Later: another payment, a charge of the contract, then the later
	// payment reversed.
	app.Clock.Advance(time.Minute)
	token, err := app.Tokens.Issue(u.ID, 0, app.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	app.Post(base+"/payments", token, map[string]any{"amount": 300, "method": "cash", "contract_id": contract.ID}).
		Expect(http.StatusCreated).JSON(&p2)
	// December's rent, billed in December.
	app.Clock.Advance(15 * 24 * time.Hour)
	if token, err = app.Tokens.Issue(u.ID, 0, app.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	app.Post(base+"/expenses/refresh-all", token, nil).Expect(http.StatusOK)
	var charges struct{ Total int }
	app.Get(base+"/charges?contract_id="+contract.ID+"&period=2026-12", token).Expect(http.StatusOK).JSON(&charges)
	if charges.Total != 1 {
		t.Fatalf("December's rent was not billed: %+v", charges)
	}

	want := map[string][]string{
		"de": {"Zahlungsdatum 20.11.2026", "Zahlungsart Überweisung", "Verwendungszweck Kaution und Miete 11/2026",
			"Vertrag Nr. 2026/007", "Kaution 11.2026 1.900,00 €", "Miete, Vertrag 2026/007 11.2026 100,00 €", "Gesamt 2.000,00 €",
			"Offener Betrag aus dem Vertrag nach dieser Zahlung 850,00 €"},
		"en": {"Payment date 2026-11-20", "Payment method Bank transfer", "Reference Kaution und Miete 11/2026",
			"Contract No. 2026/007", "Deposit 2026-11 €1,900.00", "Rent, contract 2026/007 2026-11 €100.00", "Total €2,000.00",
			"Outstanding on the contract after this payment €850.00"},
		"fr": {"Virement bancaire", "Dépôt de garantie", "Loyer, contrat 2026/007", "850,00 €", "20/11/2026"},
		"es": {"Transferencia bancaria", "Fianza", "Renta, contrato 2026/007", "850,00 €", "20/11/2026"},
		"uk": {"Банківський переказ", "Гарантійний платіж", "Орендна плата, договір 2026/007", "850,00 €", "20.11.2026"},
	}
	check := func(when string) {
		for locale, parts := range want {
			text := receiptText(t, app, token, first.ID, locale)
			for _, s := range parts {
				if !strings.Contains(text, s) {
					t.Errorf("%s, %s: the receipt lacks %q\n%s", when, locale, s, text)
				}
			}
			for _, english := range []string{"Rent, contract", "Deposit"} {
				if locale != "en" && strings.Contains(text, english) {
					t.Errorf("%s, %s: the receipt has the English %q\n%s", when, locale, english, text)
				}
			}
		}
	}
	check("after a later payment and charge")
	app.Clock.Advance(time.Minute)
	app.Post(base+"/payments/"+p2.ID+"/reverse", token, map[string]any{"reason": "bounced"}).Expect(http.StatusOK)
	check("after the later payment's reversal")

	// The second receipt: after it the contract owed 850 - 300 = 550
	// (December's rent came after it).
	app.Get(base+"/receipts", token).Expect(http.StatusOK).JSON(&l)
	for _, r := range l.Receipts {
		if r.PaymentID != p2.ID {
			continue
		}
		text := receiptText(t, app, token, r.ID, "de")
		for _, s := range []string{"Zahlungsart Barzahlung", "Offener Betrag aus dem Vertrag nach dieser Zahlung 550,00 €", "Diese Quittung wurde storniert"} {
			if !strings.Contains(text, s) {
				t.Errorf("the second receipt lacks %q\n%s", s, text)
			}
		}
		if strings.Contains(text, "Verwendungszweck") {
			t.Errorf("a payment without a reference prints one\n%s", text)
		}
	}
}

// A payment without a contract: the receipt's balance is the property's,
// a charge the landlord named is printed as written in every locale, and
// the credit the payment kept is shown.
func TestReceiptPrintFormOfAPropertyPayment(t *testing.T) {
	app, u, base := startPrinting(t)
	app.Post(base+"/charges", u.Token, map[string]any{"name": "Rent for the garden shed", "amount": 100, "due_date": "2026-11-03"}).Expect(http.StatusCreated)
	app.Post(base+"/charges", u.Token, map[string]any{"name": "Deposit", "amount": 40, "due_date": "2026-11-04"}).Expect(http.StatusCreated)
	app.Post(base+"/payments", u.Token, map[string]any{"amount": 90, "method": "card", "paid_on": "2026-11-21"}).Expect(http.StatusCreated)
	var l receiptList
	app.Get(base+"/receipts", u.Token).Expect(http.StatusOK).JSON(&l)
	de := receiptText(t, app, u.Token, l.Receipts[0].ID, "de")
	for _, s := range []string{"Rent for the garden shed", "Zahlungsart Kartenzahlung", "Offener Betrag für das Mietobjekt nach dieser Zahlung 50,00 €"} {
		if !strings.Contains(de, s) {
			t.Errorf("the receipt lacks %q\n%s", s, de)
		}
	}
	if strings.Contains(de, "Vertrag Nr.") {
		t.Errorf("a payment without a contract names one\n%s", de)
	}
	app.Post(base+"/payments", u.Token, map[string]any{"amount": 80, "method": "other"}).Expect(http.StatusCreated)
	app.Get(base+"/receipts", u.Token).Expect(http.StatusOK).JSON(&l)
	en := receiptText(t, app, u.Token, l.Receipts[0].ID, "en")
	for _, s := range []string{"Payment method Other", "Credit kept for later charges €30.00", "Outstanding on the property after this payment €0.00"} {
		if !strings.Contains(en, s) {
			t.Errorf("the second receipt lacks %q\n%s", s, en)
		}
	}
}

// The receipt names who received the money: the landlord, with the
// profile's postal address once there is one (in the form's locale), and
// a change of that address gives the receipt a new ETag.
func TestReceiptPrintFormNamesTheLandlord(t *testing.T) {
	app, u, base := startPrinting(t)
	app.Put("/api/v1/user/profile", u.Token, map[string]any{"name": "Lena Vermieterin"}).Expect(http.StatusOK)
	app.Post(base+"/payments", u.Token, map[string]any{"amount": 90, "method": "cash", "paid_on": "2026-11-21"}).Expect(http.StatusCreated)
	var l receiptList
	app.Get(base+"/receipts", u.Token).Expect(http.StatusOK).JSON(&l)
	id := l.Receipts[0].ID
	before := app.Get("/api/v1/print-forms/receipts/"+id+"?locale=de", u.Token).Expect(http.StatusOK).Header.Get("ETag")
	if de := receiptText(t, app, u.Token, id, "de"); !strings.Contains(de, "Vermieter Lena Vermieterin") || strings.Contains(de, "Wien") {
		t.Errorf("without an address: want the landlord's name alone\n%s", de)
	}
	// A minute later, so the profile's updated_at moves on the test clock.
	app.Clock.Advance(time.Minute)
	token, err := app.Tokens.Issue(u.ID, 0, app.Clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	app.Put("/api/v1/user/profile", token, map[string]any{"name": "Lena Vermieterin",
		"postal_address": map[string]any{"address": "Kärntner Straße 12/3", "postal_code": "1010", "city": "Wien", "country_code": "AT"}}).
		Expect(http.StatusOK)
	after := app.Get("/api/v1/print-forms/receipts/"+id+"?locale=de", token).Expect(http.StatusOK).Header.Get("ETag")
	if after == before {
		t.Errorf("the landlord's new address left the receipt's ETag at %s", before)
	}
	want := map[string][]string{
		"de": {"Vermieter Lena Vermieterin", "Kärntner Straße 12/3, 1010 Wien, Österreich"},
		"en": {"Landlord Lena Vermieterin", "Kärntner Straße 12/3, 1010 Wien, Austria"},
	}
	for locale, parts := range want {
		text := receiptText(t, app, token, id, locale)
		for _, s := range parts {
			if !strings.Contains(text, s) {
				t.Errorf("%s: the receipt lacks %q\n%s", locale, s, text)
			}
		}
	}
}

// A receipt states the balance at the end of its payment's day, whatever
// was keyed in later: the landlord enters in November a payment of 500
// made on 5 September, when September's rent (950, due the 3rd) was the
// only one due; October's and November's rent, billed before the entry,
// are not in it, and a payment made on 4 September but keyed in after it
// is.
func TestReceiptStatesTheBalanceOfItsDay(t *testing.T) {
	app, u, base := startPrinting(t)
	prop := strings.TrimPrefix(base, "/api/v1/properties/")
	var tenant, contract struct{ ID string }
	app.Post("/api/v1/contragents", u.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Tom Mieter"}).
		Expect(http.StatusCreated).JSON(&tenant)
	app.Post("/api/v1/contracts", u.Token, map[string]any{"property_id": prop, "tenant_id": tenant.ID, "number": "2026/009", "locale": "de",
		"terms": []map[string]any{{"code": "MONTHLY_RENT_AMOUNT", "value": 950}, {"code": "CONTRACT_START_DATE", "value": "2026-09-01"},
			{"code": "PAYMENT_DAY_OF_MONTH", "value": 3}}}).Expect(http.StatusCreated).JSON(&contract)
	app.Post("/api/v1/contracts/"+contract.ID+"/activate", u.Token, nil).Expect(http.StatusOK)
	app.Post(base+"/expenses/refresh-all?since=2026-09", u.Token, nil).Expect(http.StatusOK)
	pay := func(amount float64, on string) string {
		var p struct{ ID string }
		app.Post(base+"/payments", u.Token, map[string]any{"amount": amount, "method": "bank_transfer", "contract_id": contract.ID,
			"paid_on": on}).Expect(http.StatusCreated).JSON(&p)
		var l receiptList
		app.Get(base+"/receipts?per_page=100", u.Token).Expect(http.StatusOK).JSON(&l)
		for _, r := range l.Receipts {
			if r.PaymentID == p.ID {
				return r.ID
			}
		}
		t.Fatalf("no receipt of the payment of %s", on)
		return ""
	}
	owed := func(receipt, want string) {
		t.Helper()
		text := receiptText(t, app, u.Token, receipt, "de")
		if line := "Offener Betrag aus dem Vertrag nach dieser Zahlung " + want; !strings.Contains(text, line) {
			t.Errorf("the receipt lacks %q:\n%s", line, text)
		}
	}
	sept := pay(500, "2026-09-05")
	owed(sept, "450,00 €")
	// Due by 4 October: September's and October's rent (1,900); paid by
	// then: 500 + 1,000.
	oct := pay(1000, "2026-10-04")
	owed(oct, "400,00 €")
	owed(sept, "450,00 €")
	// Keyed in last, made first: it counts on the receipts of the days
	// after it.
	pay(100, "2026-09-04")
	owed(sept, "350,00 €")
	owed(oct, "300,00 €")
}
