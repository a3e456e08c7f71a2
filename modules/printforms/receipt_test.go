package printforms

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

func testLabels(t testing.TB) *Labels {
	t.Helper()
	dicts, err := translations.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return NewLabels(dicts)
}

func sampleReceipt(status string) Receipt {
	return Receipt{
		Number: "2026-000042", IssuedAt: time.Date(2026, 11, 23, 22, 30, 0, 0, time.UTC),
		PayerName: "Олена Коваленко", PropertyName: "Flat 3B", PropertyAddress: "Hauptstraße 5, 10115 Berlin",
		Currency: "EUR", PaidOn: period.NewDate(2026, 11, 21), Method: "bank_transfer", Reference: "Miete 11/2026 Whg. 3B",
		ContractNumber: "2026/001",
		Lines: []ReceiptLine{
			{Charge: "Rent, contract 2026/001", Period: "2026-11", Amount: 95000},
			{Charge: "Utility prepayment", Period: "2026-Q4", Amount: 15050},
			{Charge: "Deposit", Period: "", Amount: 123400},
			{Charge: "Late fee: Rent, contract 2026/001", Period: "2026-10", Amount: 1000},
			{Charge: "Electricity 2026-11 (1234.5 kWh x 0.301234)", Period: "2026-11", Amount: 37187},
		},
		Total: 271637, Balance: &balance, Credit: 2500, Status: status,
	}
}

var balance = money.Amount(85000)

// Every locale's receipt has its number, date, payer, property, each
// line's charge, period and amount and the total in the locale's format;
// a void one has the note and the big localized VOID, an issued one not.
func TestReceiptInEveryLocale(t *testing.T) {
	requirePoppler(t)
	labels := testLabels(t)
	r := NewRenderer(labels)
	formats := map[string][]string{
		"en": {"2026-11-23", "2026-11-21", "2026-11", "Q4 2026", "€950.00", "€150.50", "€1,234.00", "€2,716.37", "€850.00", "€25.00", "(1,234.5 kWh × 0.301234)"},
		"de": {"23.11.2026", "21.11.2026", "11.2026", "Q4 2026", "950,00 €", "150,50 €", "1.234,00 €", "2.716,37 €", "850,00 €", "25,00 €", "(1.234,5 kWh × 0,301234)"},
		"fr": {"23/11/2026", "21/11/2026", "11/2026", "Q4 2026", "950,00 €", "150,50 €", "1 234,00 €", "2 716,37 €", "850,00 €", "25,00 €", "(1 234,5 kWh × 0,301234)"},
		"es": {"23/11/2026", "21/11/2026", "11/2026", "Q4 2026", "950,00 €", "150,50 €", "1.234,00 €", "2.716,37 €", "850,00 €", "25,00 €", "(1.234,5 kWh × 0,301234)"},
		"uk": {"23.11.2026", "21.11.2026", "11.2026", "Q4 2026", "950,00 €", "150,50 €", "1 234,00 €", "2 716,37 €", "850,00 €", "25,00 €", "(1 234,5 kWh × 0,301234)"},
	}
	for locale, formatted := range formats {
		l, missing := labels.forLocale(locale)
		if len(missing) > 0 {
			t.Fatalf("%s: no dictionary has %v", locale, missing)
		}
		for _, status := range []string{ReceiptIssued, ReceiptVoid} {
			pdf, err := r.Receipt(locale, sampleReceipt(status))
			if err != nil {
				t.Fatalf("%s %s: %v", locale, status, err)
			}
			text := pdfText(t, pdf)
			want := append([]string{
				l.get(keyReceiptTitle), l.get(keyReceiptNumber) + " 2026-000042", l.get(keyIssuedOn), l.get(keyPayer),
				"Олена Коваленко", l.get(keyProperty), "Flat 3B", "Hauptstraße 5, 10115 Berlin",
				l.get(keyCharge), l.get(keyPeriod), l.get(keyAmount), l.get(keyTotal),
				l.get(keyPaidOn), l.get(keyMethod) + " " + l.get(keyMethodPrefix+"bank_transfer"),
				l.get(keyReference) + " Miete 11/2026 Whg. 3B", l.get(keyReceiptContract) + " 2026/001",
				l.get(keyBalanceContract), l.get(keyCredit),
				// The service's charges in the locale, the landlord's as typed.
				strings.NewReplacer("{charge}", l.get(keyChargePrefix+"rent"), "{number}", "2026/001").Replace(l.get(keyChargeOf)),
				l.get(keyChargePrefix+"late_fee") + ": " + strings.NewReplacer("{charge}", l.get(keyChargePrefix+"rent"), "{number}", "2026/001").Replace(l.get(keyChargeOf)),
				l.get(keyChargePrefix + "deposit"), l.get(keyMeterPrefix + "electricity"), "Utility prepayment",
				l.get(keySignature), l.get(keyDate), l.page("1", "1"),
			}, formatted...)
			if locale != "en" {
				for _, english := range []string{"Rent, contract", "Deposit", "Late fee", "Electricity", "Bank transfer"} {
					if strings.Contains(text, english) {
						t.Errorf("%s %s: the receipt has the English %q\n%s", locale, status, english, text)
					}
				}
			}
			for _, s := range want {
				if !strings.Contains(text, s) {
					t.Errorf("%s %s: the receipt lacks %q\n%s", locale, status, s, text)
				}
			}
			// The watermark is drawn diagonally: pdftotext -raw gives its
			// letters one by one.
			raw := strings.ReplaceAll(pdfText(t, pdf, "-raw"), " ", "")
			void := strings.ReplaceAll(l.get(keyVoid), " ", "")
			hasVoid := strings.Contains(raw, void) && strings.Contains(text, l.get(keyVoidNote))
			if hasVoid != (status == ReceiptVoid) {
				t.Errorf("%s %s: VOID %q and its note shown: %v\n%s", locale, status, void, hasVoid, raw)
			}
			if n := pdfPages(t, pdf); n != 1 {
				t.Errorf("%s %s: %d pages", locale, status, n)
			}
		}
	}
}

// A receipt of many lines runs over pages with the table's header on
// each; hostile charge names still give a valid PDF.
func TestReceiptLongAndHostile(t *testing.T) {
	requirePoppler(t)
	r := NewRenderer(testLabels(t))
	rc := sampleReceipt(ReceiptVoid)
	rc.Lines = nil
	for i := range 120 {
		name := fmt.Sprintf("Charge number %d", i)
		switch i % 4 {
		case 1:
			name = "\u202e" + strings.Repeat("Ü", 300) + "\x07"
		case 2:
			name = strings.Repeat("word ", 60) + "😀"
		}
		rc.Lines = append(rc.Lines, ReceiptLine{Charge: name, Period: "2026-11", Amount: money.Amount(i * 101)})
	}
	rc.PayerName = strings.Repeat("\u202e", 10) + "Payer\x00"
	rc.Number = "2026-\"000042\"\n"
	pdf, err := r.Receipt("en", rc)
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, pdf)
	pages := pdfPages(t, pdf)
	if pages < 4 || pages > 40 {
		t.Errorf("%d pages for 120 lines", pages)
	}
	raw := pdfText(t, pdf, "-raw")
	if n := strings.Count(raw, "Charge Period Amount"); n != pages {
		t.Errorf("the table header is on %d of %d pages", n, pages)
	}
	for _, s := range []string{"Charge number 0", "Charge number 119", "Payer", "Page 1 of " + fmt.Sprint(pages), "Page " + fmt.Sprint(pages) + " of "} {
		if !strings.Contains(text, s) {
			t.Errorf("the receipt lacks %q", s)
		}
	}
	if strings.ContainsAny(text, "\u202e\x07\x00") {
		t.Error("invisible or control characters were drawn")
	}
	if raw := strings.ReplaceAll(raw, " ", ""); strings.Count(raw, "VOID") < pages {
		t.Errorf("VOID is not on each of the %d pages", pages)
	}
}

// Rendering is deterministic: the same receipt gives the same bytes (the
// cache and the ETag rely on it), another locale other bytes.
func TestReceiptBytesAreStable(t *testing.T) {
	r := NewRenderer(testLabels(t))
	a, err := r.Receipt("de", sampleReceipt(ReceiptIssued))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := r.Receipt("de", sampleReceipt(ReceiptIssued))
	c, _ := r.Receipt("fr", sampleReceipt(ReceiptIssued))
	if string(a) != string(b) || string(a) == string(c) {
		t.Errorf("same receipt: equal %v; another locale: equal %v", string(a) == string(b), string(a) == string(c))
	}
}

// fakeDirectory is the active languages en, de, fr, es, uk.
type fakeDirectory struct{}

func (fakeDirectory) Language(code string) (reference.Language, bool) {
	code = strings.ToLower(code)
	switch code {
	case "en", "de", "fr", "es", "uk":
		return reference.Language{Code: code}, true
	}
	return reference.Language{}, false
}

func (fakeDirectory) Country(string) (reference.Country, bool) { return reference.Country{}, false }

// fakeReceipts is a ReceiptSource: user 1 owns r1; r2 is another user's.
type fakeReceipts struct{ rc PrintableReceipt }

func (f *fakeReceipts) PrintableReceipt(_ context.Context, p auth.Principal, rawID string) (PrintableReceipt, error) {
	switch {
	case rawID == "r2":
		return PrintableReceipt{}, apierror.Forbidden("This receipt belongs to another user.")
	case rawID != "r1":
		return PrintableReceipt{}, apierror.NotFound("Receipt not found.")
	}
	return f.rc, nil
}

// receiptApp serves Handler.receipt's path (serveReceipt, with the
// principal the guard would give) on a bare Fiber app.
func receiptApp(src ReceiptSource) *fiber.App {
	labels := testLabelsNoT()
	h := NewHandler(HandlerParams{
		Service:  &Service{dir: fakeDirectory{}, render: NewRenderer(labels), labels: labels.Version()},
		Cache:    NewCache(8, 1<<20),
		Receipts: src,
	})
	app := fiber.New(fiber.Config{ErrorHandler: func(c *fiber.Ctx, err error) error {
		if ae, ok := apierror.As(err); ok {
			return c.Status(ae.Status).JSON(ae)
		}
		return c.Status(http.StatusInternalServerError).SendString(err.Error())
	}})
	app.Get("/print-forms/receipts/:receiptId", func(c *fiber.Ctx) error { return h.serveReceipt(c, auth.Principal{UserID: 1}) })
	return app
}

func testLabelsNoT() *Labels {
	dicts, err := translations.Embedded()
	if err != nil {
		panic(err)
	}
	return NewLabels(dicts)
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func get(t *testing.T, app *fiber.App, path string, headers ...string) answer {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return answer{res.StatusCode, res.Header, b}
}

// The receipt route, once added, works like the contract's: the source's
// default locale or ?locale=, 400 for an unknown locale, the source's
// 403/404, ETag/304 from the source's version, the filename.
func TestReceiptHandler(t *testing.T) {
	requirePoppler(t)
	src := &fakeReceipts{rc: PrintableReceipt{Receipt: sampleReceipt(ReceiptIssued), DefaultLocale: "de", Version: "v1"}}
	app := receiptApp(src)
	const path = "/print-forms/receipts/r1"

	res := get(t, app, path)
	if res.status != http.StatusOK || res.header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("status %d, type %q: %s", res.status, res.header.Get("Content-Type"), res.body)
	}
	if got := res.header.Get("Content-Disposition"); got != `attachment; filename="receipt-2026-000042.pdf"` {
		t.Errorf("Content-Disposition %q", got)
	}
	if text := pdfText(t, res.body); !strings.HasPrefix(text, "Zahlungsquittung ") || !strings.Contains(text, "2.716,37 €") {
		t.Errorf("not the German receipt: %s", text)
	}
	if text := pdfText(t, get(t, app, path+"?locale=uk").body); !strings.HasPrefix(text, "Квитанція про оплату ") {
		t.Errorf("not the Ukrainian receipt: %s", text)
	}
	if res := get(t, app, path+"?locale=xx"); res.status != http.StatusBadRequest || !strings.Contains(string(res.body), "locale: ") {
		t.Errorf("?locale=xx: %d %s", res.status, res.body)
	}
	if res := get(t, app, "/print-forms/receipts/r2"); res.status != http.StatusForbidden {
		t.Errorf("another user's receipt: %d", res.status)
	}
	if res := get(t, app, "/print-forms/receipts/nope"); res.status != http.StatusNotFound {
		t.Errorf("unknown receipt: %d", res.status)
	}

	etag := res.header.Get("ETag")
	if nm := get(t, app, path, "If-None-Match", etag); nm.status != http.StatusNotModified || len(nm.body) != 0 {
		t.Errorf("If-None-Match: %d with %d bytes", nm.status, len(nm.body))
	}
	src.rc.Version, src.rc.Receipt.Status = "v2", ReceiptVoid
	voided := get(t, app, path, "If-None-Match", etag)
	if voided.status != http.StatusOK || voided.header.Get("ETag") == etag {
		t.Fatalf("after the receipt changed: %d, ETag %q", voided.status, voided.header.Get("ETag"))
	}
	if text := pdfText(t, voided.body); !strings.Contains(text, "storniert") {
		t.Errorf("the voided receipt lacks the note: %s", text)
	}

	if res := get(t, receiptApp(nil), path); res.status != http.StatusNotFound {
		t.Errorf("without a source: %d", res.status)
	}
}
