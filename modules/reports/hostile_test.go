package reports_test

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	ics "github.com/arran4/golang-ical"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

// The text a person may type that has broken generated documents before:
// characters above U+FFFF (fpdf's font table panicked on them), combining
// marks, right-to-left scripts, bidirectional overrides, joiners.
const (
	hostile   = "Flat 😀🔧 Cafe\u0301 שלום مرحبا \u202eevil\u202c a\u200db 𝔘𝔫𝔦 END"
	multiline = "Line one 😀\nLine two\r\nשלום\tend"
)

// TestHostileTextInEveryDocument puts that text into every field that
// reaches a document (names, addresses, references, notes, deductions,
// event titles) and fetches each document propman makes of it: the
// contract, receipt, inspection, deposit statement and owner statement
// PDFs, the income chart, the CSV and XLSX lists and the calendar feed.
// Each is a correct document of its kind that still carries the text's
// readable part; none is a 5xx. Control characters, which the text rule
// refuses, are refused with a 400 that changes nothing.
func TestHostileTextInEveryDocument(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	tok := u.Token
	app.Put("/api/v1/user/profile", tok, map[string]any{"name": hostile, "locale": "de"}).Expect(http.StatusOK)

	for _, bad := range []string{"Flat\u0007", "Flat\u0085", "Flat\x1b[31m", "Flat\nTwo"} {
		res := app.Post("/api/v1/properties", tok, map[string]any{"name": bad, "country_code": "DE"})
		if res.Status != http.StatusBadRequest || !strings.Contains(res.String(), "control characters") {
			t.Errorf("property named %q: %d %s, want 400", bad, res.Status, res.Body)
		}
	}
	var list struct {
		Total int `json:"total"`
	}
	app.Get("/api/v1/properties", tok).Expect(http.StatusOK).JSON(&list)
	if list.Total != 0 {
		t.Fatalf("refused properties stored: %d", list.Total)
	}

	prop := created(t, app.Post("/api/v1/properties", tok, map[string]any{"name": hostile, "address": hostile,
		"city": "Zürich 😀", "postal_code": "10115", "country_code": "DE"}))
	path := "/api/v1/properties/" + prop
	tenant := created(t, app.Post("/api/v1/contragents", tok, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": hostile}))
	contract := created(t, app.Post("/api/v1/contracts", tok, map[string]any{"property_id": prop, "tenant_id": tenant,
		"number": "H-1 😀", "locale": "de", "terms": []map[string]any{
			{"code": "MONTHLY_RENT_AMOUNT", "value": 700}, {"code": "CONTRACT_START_DATE", "value": "2026-09-01"},
			{"code": "CONTRACT_END_DATE", "value": "2026-11-20"}, {"code": "PAYMENT_DAY_OF_MONTH", "value": 3},
			{"code": "DEPOSIT_AMOUNT", "value": 1400}, {"code": "SPECIAL_CONDITIONS", "value": multiline}}}))
	app.Post("/api/v1/contracts/"+contract+"/activate", tok, nil).Expect(http.StatusOK)
	app.Post(path+"/expenses", tok, map[string]any{"name": hostile, "amount": 20, "type": "MONTHLY",
		"start_date": "2026-09-01", "due_day": 5, "contract_id": contract}).Expect(http.StatusCreated)
	app.Post(path+"/expenses/refresh-all?since=2026-09", tok, nil).Expect(http.StatusOK)
	payment := created(t, app.Post(path+"/payments", tok, map[string]any{"amount": 5000, "paid_on": "2026-11-20",
		"method": "bank_transfer", "contract_id": contract, "reference": hostile}))

	var receipts struct {
		Receipts []struct {
			ID        string `json:"id"`
			PaymentID string `json:"payment_id"`
		} `json:"receipts"`
	}
	app.Get(path+"/receipts", tok).Expect(http.StatusOK).JSON(&receipts)
	receipt := ""
	for _, r := range receipts.Receipts {
		if r.PaymentID == payment {
			receipt = r.ID
		}
	}
	if receipt == "" {
		t.Fatalf("no receipt of the payment: %+v", receipts)
	}

	asset := created(t, app.Post(path+"/assets", tok, map[string]any{"name": hostile, "serial": "😀-1"}))
	var inspection string
	for _, kind := range []string{"check_in", "check_out"} {
		on := map[string]string{"check_in": "2026-09-01", "check_out": "2026-11-20"}[kind]
		inspection = created(t, app.Post(path+"/assets/inspections", tok, map[string]any{"contract_id": contract, "kind": kind,
			"inspected_on": on, "notes": multiline, "items": []map[string]any{{"asset_id": asset, "condition": "good", "notes": hostile}}}))
	}
	settlement := created(t, app.Post(path+"/compensations/deposit-settlements", tok, map[string]any{"contract_id": contract,
		"deductions": []map[string]any{{"reason": hostile, "amount": 10}}}))

	pdfs := map[string]string{
		"contract":          "/api/v1/print-forms/contracts/" + contract,
		"receipt":           "/api/v1/print-forms/receipts/" + receipt,
		"inspection":        "/api/v1/print-forms/inspections/" + inspection,
		"deposit statement": "/api/v1/print-forms/deposit-settlements/" + settlement,
		"owner statement":   base + "/owner-statement?property_id=" + prop + "&month=2026-11",
	}
	pdftotext := requires.Optional(t, "pdftotext", "apt-get install poppler-utils")
	for name, url := range pdfs {
		res := app.Get(url, tok)
		if res.Status != http.StatusOK {
			t.Errorf("%s: %d %s", name, res.Status, res.Body)
			continue
		}
		if !bytes.HasPrefix(res.Body, []byte("%PDF-")) || !bytes.Contains(res.Body[max(0, len(res.Body)-32):], []byte("%%EOF")) {
			t.Errorf("%s: not a whole PDF", name)
			continue
		}
		if pdftotext == "" {
			continue
		}
		text := readPDF(t, pdftotext, res.Body)
		// The fonts draw Latin with its combining marks; what they lack is
		// one U+FFFD each, and the invisible characters are left out.
		for _, want := range []string{"Flat", "Café", "evil", "END", "\ufffd"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, text)
			}
		}
		if strings.ContainsAny(text, "\u202e\u202c\u200d😀") ||
			strings.ContainsFunc(text, func(r rune) bool { return unicode.Is(unicode.Hebrew, r) || unicode.Is(unicode.Arabic, r) }) {
			t.Errorf("%s: drew characters it cannot or must not:\n%s", name, text)
		}
	}

	// The chart is well-formed XML whatever the names.
	svg := app.Get(base+"/income?year=2026&format=svg", tok).Expect(http.StatusOK)
	if err := xml.Unmarshal(svg.Body, new(struct{})); err != nil {
		t.Errorf("income chart: not XML: %v", err)
	}

	// The lists as files carry the text exactly as stored (English asked
	// for: the profile's German would name the columns in German).
	rows := readCSV(t, app.Get("/api/v1/properties?format=csv&locale=en", tok).Expect(http.StatusOK).Body)
	if len(rows) != 2 {
		t.Fatalf("properties csv: %v", rows)
	}
	name := indexOf(rows[0], "name")
	if rows[1][name] != hostile || rows[1][indexOf(rows[0], "address")] != hostile {
		t.Errorf("csv name %q, want %q", rows[1][name], hostile)
	}
	x := openXLSX(t, app.Get("/api/v1/properties?format=xlsx", tok).Expect(http.StatusOK).Body)
	if len(x.Rows) != 2 || x.Rows[1][name].V != hostile {
		t.Errorf("xlsx name %+v, want %q", x.Rows, hostile)
	}
	charges := app.Get(path+"/charges?format=xlsx", tok).Expect(http.StatusOK).Body
	if !strings.Contains(strings.Join(flatten(openXLSX(t, charges)), "|"), hostile) {
		t.Errorf("the charges' xlsx lacks the expense's name")
	}

	// The feed: lines end CRLF, none longer than 75 octets, and a reader
	// gets the title and the description back as typed.
	event := created(t, app.Post("/api/v1/calendar-events", tok, map[string]any{"title": hostile, "description": multiline,
		"kind": "viewing", "starts_at": "2026-12-01T10:00:00Z", "ends_at": "2026-12-01T11:00:00Z", "property_id": prop}))
	var feed struct {
		URL string `json:"url"`
	}
	app.Post("/api/v1/calendar/feed-token", tok, nil).Expect(http.StatusCreated).JSON(&feed)
	body := app.Get(feed.URL, "").Expect(http.StatusOK).Body
	checkContentLines(t, body)
	cal, err := ics.ParseCalendar(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("feed: %v", err)
	}
	found := false
	for _, ev := range cal.Events() {
		if ev.Id() != event+"@propman" {
			continue
		}
		found = true
		if got := ev.GetProperty(ics.ComponentPropertySummary).Value; got != hostile {
			t.Errorf("feed SUMMARY %q, want %q", got, hostile)
		}
		want := strings.ReplaceAll(multiline, "\r\n", "\n")
		if got := strings.ReplaceAll(ev.GetProperty(ics.ComponentPropertyDescription).Value, "\r\n", "\n"); got != want {
			t.Errorf("feed DESCRIPTION %q, want %q", got, want)
		}
	}
	if !found {
		t.Errorf("the event is not in the feed:\n%s", body)
	}

	// Rows older than the text rule may hold control characters: the
	// documents made of them stay valid, the characters left out.
	legacy := "Old\x01\x07\x1b[31m\u0085\u009b Flat\x7f"
	if _, err := app.DB.NewUpdate().Table("properties").Set("name = ?", legacy).Where("id = ?", prop).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
	stmt := app.Get(base+"/owner-statement?property_id="+prop+"&month=2026-11", tok).Expect(http.StatusOK).Body
	if pdftotext != "" {
		if text := readPDF(t, pdftotext, stmt); !strings.Contains(text, "Old") || strings.ContainsAny(text, "\x01\x07\x1b\x7f\u0085\u009b") {
			t.Errorf("owner statement of a legacy name: %q", text)
		}
	}
	x = openXLSX(t, app.Get("/api/v1/properties?format=xlsx", tok).Expect(http.StatusOK).Body)
	if v, _ := x.Rows[1][name].V.(string); !strings.HasPrefix(v, "Old") || strings.ContainsAny(v, "\x01\x07\x1b\x7f\u0085\u009b") || strings.Contains(v, "_x00") {
		t.Errorf("xlsx of a legacy name: %q", v)
	}
	rows = readCSV(t, app.Get("/api/v1/properties?format=csv&locale=en", tok).Expect(http.StatusOK).Body)
	if !strings.HasPrefix(rows[1][name], "Old") {
		t.Errorf("csv of a legacy name: %q", rows)
	}
	body = app.Get(feed.URL, "").Expect(http.StatusOK).Body
	checkContentLines(t, body)
	if bytes.ContainsAny(body, "\x01\x07\x1b\x7f\u0085\u009b") {
		t.Errorf("the feed carries control characters")
	}
	if _, err := ics.ParseCalendar(bytes.NewReader(body)); err != nil {
		t.Errorf("feed of a legacy name: %v", err)
	}
}

// checkContentLines holds a feed to RFC 5545 § 3.1: every line ends with
// CRLF, no CR or LF stands alone, and no line is longer than 75 octets.
func checkContentLines(t *testing.T, body []byte) {
	t.Helper()
	if !bytes.HasSuffix(body, []byte("\r\n")) {
		t.Errorf("the feed does not end with CRLF")
	}
	for i, line := range bytes.Split(bytes.TrimSuffix(body, []byte("\r\n")), []byte("\r\n")) {
		if bytes.ContainsAny(line, "\r\n") {
			t.Errorf("line %d holds a bare CR or LF: %q", i+1, line)
		}
		if len(line) > 75 {
			t.Errorf("line %d is %d octets long: %q", i+1, len(line), line)
		}
	}
}

func created(t *testing.T, res *testkit.Response) string {
	t.Helper()
	var v struct {
		ID string `json:"id"`
	}
	res.Expect(http.StatusCreated).JSON(&v)
	return v.ID
}

func readPDF(t *testing.T, pdftotext string, pdf []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "d.pdf")
	if err := os.WriteFile(p, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-enc", "UTF-8", p, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	return string(out)
}

func flatten(s xsheet) []string {
	var out []string
	for _, r := range s.Rows {
		for _, c := range r {
			if v, ok := c.V.(string); ok {
				out = append(out, v)
			}
		}
	}
	return out
}
