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

	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

// TestIncomeChartRenders draws the income chart and renders it with
// rsvg-convert (installed by .ci/needs/reports.sh): a PNG comes out, and
// the SVG has one bar per month and series.
func TestIncomeChartRenders(t *testing.T) {
	rsvg := requires.Optional(t, "rsvg-convert", "apt-get install librsvg2-bin")
	app := testkit.Start(t)
	p := generate(t, app, 3, 5)
	for _, path := range []string{base + "/income?year=2026&format=svg", base + "/income?year=2030&format=svg"} {
		res := app.Get(path, p.user.Token).Expect(http.StatusOK)
		if res.Header.Get("Content-Type") != "image/svg+xml" {
			t.Fatalf("content type %q", res.Header.Get("Content-Type"))
		}
		var doc struct {
			Rects []struct{} `xml:"rect"`
		}
		if err := xml.Unmarshal(res.Body, &doc); err != nil {
			t.Fatalf("%s: not XML: %v", path, err)
		}
		// background + legend (3) + 2 currencies x 12 months x 3 series
		if want := 1 + 3 + 2*12*3; strings.Contains(path, "2026") && len(doc.Rects) != want {
			t.Errorf("%d rects, want %d", len(doc.Rects), want)
		}
		if rsvg == "" {
			continue
		}
		dir := t.TempDir()
		svg, png := filepath.Join(dir, "c.svg"), filepath.Join(dir, "c.png")
		if err := os.WriteFile(svg, res.Body, 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(rsvg, "-o", png, svg).CombinedOutput(); err != nil {
			t.Fatalf("rsvg-convert: %v\n%s", err, out)
		}
		b, err := os.ReadFile(png)
		if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) || len(b) < 1000 {
			t.Fatalf("rendered %d bytes: %v", len(b), err)
		}
	}
	accept := app.Do(testkit.Request{Method: http.MethodGet, Path: base + "/income?year=2026", Token: p.user.Token,
		Headers: map[string]string{"Accept": "image/svg+xml"}}).Expect(http.StatusOK)
	if !bytes.HasPrefix(accept.Body, []byte("<?xml")) {
		t.Errorf("Accept: image/svg+xml gave %.80s", accept.Body)
	}
}

// TestOwnerStatementPDF reads the statement back with pdftotext: in the
// owner's language (German here), the month's income as the sum of the
// payments the payments list shows for that month, written as German
// writes amounts.
func TestOwnerStatementPDF(t *testing.T) {
	pdftotext := requires.Program(t, "pdftotext", "apt-get install poppler-utils")
	app := testkit.Start(t)
	p := generate(t, app, 1, 11)
	u := p.units[0]
	app.Put("/api/v1/user/profile", p.user.Token, map[string]any{"locale": "de"}).Expect(http.StatusOK)
	for _, amount := range []float64{1234.56, 10.05} {
		app.Post("/api/v1/properties/"+u.ID+"/payments", p.user.Token, map[string]any{"amount": amount, "paid_on": "2026-10-05",
			"method": "cash", "contract_id": u.Contract}).Expect(http.StatusCreated)
	}
	var list struct {
		Payments []struct {
			Amount float64 `json:"amount"`
			PaidOn string  `json:"paid_on"`
		} `json:"payments"`
	}
	app.Get("/api/v1/properties/"+u.ID+"/payments?per_page=200", p.user.Token).Expect(http.StatusOK).JSON(&list)
	var income int64
	for _, pay := range list.Payments {
		if strings.HasPrefix(pay.PaidOn, "2026-10") {
			income += cents(pay.Amount)
		}
	}
	res := app.Get(base+"/owner-statement?property_id="+u.ID+"&month=2026-10", p.user.Token).Expect(http.StatusOK)
	if res.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("content type %q", res.Header.Get("Content-Type"))
	}
	dir := t.TempDir()
	pdf := filepath.Join(dir, "s.pdf")
	if err := os.WriteFile(pdf, res.Body, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-enc", "UTF-8", "-layout", pdf, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	text := string(out)
	// pdftotext gives the no-break spaces of the amounts as spaces.
	text = strings.ReplaceAll(text, "\u00a0", " ")
	de := printforms.StyleOf("de")
	total := strings.ReplaceAll(de.Money(money.Amount(income), "EUR"), "\u00a0", " ")
	for _, want := range []string{"Eigentümerabrechnung", u.Name, de.Period("2026-10"), "Summe der Zahlungseingänge", total, "Überschuss", "Zahlungsausgänge"} {
		if !strings.Contains(text, want) {
			t.Errorf("statement lacks %q:\n%s", want, text)
		}
	}
	other := generate(t, app, 1, 12)
	app.Get(base+"/owner-statement?property_id="+other.units[0].ID, p.user.Token).Expect(http.StatusNotFound)
}

// The chart speaks its reader's language: a German landlord reads German
// words in the legend and the title, and amounts as German writes them.
func TestIncomeChartInTheReadersLanguage(t *testing.T) {
	app := testkit.Start(t)
	p := generate(t, app, 1, 5)
	en := app.Get(base+"/income?year=2026&format=svg", p.user.Token).Expect(http.StatusOK).String()
	app.Put("/api/v1/user/profile", p.user.Token, map[string]any{"locale": "de"}).Expect(http.StatusOK)
	de := app.Get(base+"/income?year=2026&format=svg", p.user.Token).Expect(http.StatusOK).String()
	for _, want := range []string{"<title>Income 2026</title>", ">charged<", ">collected<", ">outstanding<"} {
		if !strings.Contains(en, want) {
			t.Errorf("the English chart lacks %q", want)
		}
	}
	for _, want := range []string{"<title>Einnahmen 2026</title>", ">gefordert<", ">eingenommen<", ">offen<", ",00\u00a0€"} {
		if !strings.Contains(de, want) {
			t.Errorf("the German chart lacks %q", want)
		}
	}
	for _, english := range []string{"Income", "charged", "collected", "outstanding"} {
		if strings.Contains(de, english) {
			t.Errorf("the German chart says %q", english)
		}
	}
}
