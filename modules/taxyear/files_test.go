package taxyear_test

import (
	"encoding/csv"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/thedatashed/xlsxreader"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/payments/paymentstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/golden"
	"github.com/propman/propman/platform/testkit/requires"
)

// autumn is a landlord in country whose profile speaks locale, with one
// flat let from October 2025: the deposit, two months of rent and
// prepayment received, an insurance paid, a repair paid, the interest of
// the loan's instalments paid, and in DE and US a depreciation basis from
// 1 October 2025; today is 2025-12-15.
func autumn(t *testing.T, app *testkit.App, country, locale string) (token, property string) {
	t.Helper()
	u := accountstest.NewUser(t, app)
	token = u.Token
	app.Put("/api/v1/user/profile", token, map[string]any{"locale": locale}).Expect(http.StatusOK)
	where := map[string][4]string{"DE": {"Lindenstraße 4", "10115", "Berlin", "Wohnung 3"}, "FR": {"12 rue des Lilas", "69003", "Lyon", "Appartement 3"},
		"GB": {"14 Acacia Avenue", "LS6 2AB", "Leeds", "Flat 3"}, "US": {"742 Evergreen Terrace", "97403", "Springfield", "Unit 3"}}[country]
	property = id(t, app.Post("/api/v1/properties", token, map[string]any{"name": where[3], "country_code": country,
		"address": where[0], "postal_code": where[1], "city": where[2]}).Expect(http.StatusCreated))
	p := &portfolio{app: app, userID: u.ID, token: token, props: [2]string{property}}
	c := p.lease(t, 0, "L-12", "2025-10-01", map[string]any{"code": "MONTHLY_RENT_AMOUNT", "value": 800},
		map[string]any{"code": "UTILITY_PREPAYMENT_AMOUNT", "value": 150}, map[string]any{"code": "DEPOSIT_AMOUNT", "value": 1500})
	p.refresh(t)
	p.pay(t, 0, c, "2025-10-02", "2025-10", part{deposit, 150000}, part{rent, 80000}, part{prepay, 15000})
	p.pay(t, 0, c, "2025-11-04", "2025-11", part{rent, 80000}, part{prepay, 15000})
	p.supplier = id(t, app.Post("/api/v1/contragents", token, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "Assur"}).
		Expect(http.StatusCreated))
	p.bill(t, 0, "insurance", "2025-11-15", "2025-11-20", 48000)
	p.bill(t, 0, "repairs", "2025-11-28", "2025-12-01", 12050)
	p.bill(t, 0, "loan_interest", "2025-12-01", "2025-12-01", 21000)
	switch country {
	case "DE":
		// Completed 1972: 2 %, October to December: 240,000 × 2 % × 3/12 = 1,200.
		app.Put("/api/v1/properties/"+property+"/depreciation", token, map[string]any{"basis": 240000, "placed_in_service_on": "2025-10-01",
			"completed_year": 1972}).Expect(http.StatusOK)
	case "US":
		// October, year 1 of table A-6: 0.758 % of 220,000 = 1,667.60.
		app.Put("/api/v1/properties/"+property+"/depreciation", token, map[string]any{"basis": 220000, "placed_in_service_on": "2025-10-01"}).
			Expect(http.StatusOK)
	}
	return token, property
}

// The response validator's CSV decoder splits on commas and wants every
// record as long as the first: a German file (cells separated by ";",
// labels with commas) is read as its reader reads it instead.
func init() {
	openapi3filter.RegisterBodyDecoder("text/csv", func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef,
		_ openapi3filter.EncodingFn) (any, error) {
		raw, err := io.ReadAll(body)
		if err != nil {
			return nil, err
		}
		text := strings.TrimPrefix(string(raw), "\ufeff")
		r := csv.NewReader(strings.NewReader(text))
		if header, _, _ := strings.Cut(text, "\n"); strings.Contains(header, ";") {
			r.Comma = ';'
		}
		if _, err := r.ReadAll(); err != nil {
			return nil, err
		}
		return text, nil
	})
}

func pdfText(t testing.TB, pdf []byte) string {
	t.Helper()
	pdftotext := requires.Program(t, "pdftotext", "apt-get install poppler-utils")
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/f.pdf", pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, "-enc", "UTF-8", "-layout", dir+"/f.pdf", "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(out), "\u00a0", " ")
}

// TestTaxYearPDFInTheLandlordsLanguage reads each form's summary back
// with pdftotext, in the language of the landlord's profile (German for
// the Anlage V, French for the 2044, English for SA105 and Schedule E),
// against its golden text.
func TestTaxYearPDFInTheLandlordsLanguage(t *testing.T) {
	app := testkit.Start(t, testkit.WithClock(time.Date(2025, 12, 15, 10, 0, 0, 0, time.UTC)))
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	texts := map[string]string{}
	for _, c := range []struct{ country, locale, form string }{{"DE", "de", "anlage-v"}, {"FR", "fr", "2044"}, {"GB", "en", "sa105"}, {"US", "en", "schedule-e"}} {
		token, _ := autumn(t, app, c.country, c.locale)
		res := app.Get("/api/v1/reports/tax-year?year=2025&format=pdf", token).Expect(http.StatusOK)
		if ct := res.Header.Get("Content-Type"); ct != "application/pdf" {
			t.Fatalf("%s: content type %q", c.form, ct)
		}
		text := pdfText(t, res.Body)
		texts[c.form+"."+c.locale+".pdf.txt"] = text
		// The same through Accept, and in another language on request.
		byAccept := app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/reports/tax-year?year=2025", Token: token,
			Headers: map[string]string{"Accept": "application/pdf"}}).Expect(http.StatusOK)
		if byAccept.Header.Get("Content-Type") != "application/pdf" {
			t.Errorf("%s: Accept: application/pdf answered %s", c.form, byAccept.Header.Get("Content-Type"))
		}
		if c.form == "anlage-v" {
			en := pdfText(t, app.Get("/api/v1/reports/tax-year?year=2025&format=pdf&locale=en", token).Expect(http.StatusOK).Body)
			if !strings.Contains(en, "Rent for dwellings") || strings.Contains(en, "Mieteinnahmen") {
				t.Errorf("?locale=en: %s", en)
			}
		}
	}
	for name, text := range texts {
		for _, want := range map[string][]string{
			"anlage-v.de.pdf.txt":   {"Mieteinnahmen für Wohnungen (ohne Umlagen)", "1.600,00 €", "Umlagen", "300,00 €", "Summe der Werbungskosten", "2.010,50 €", "AfA", "1.200,00 €", "Schuldzinsen", "210,00 €", "Erhaltene Mietkautionen (keine Einnahmen)", "1.500,00 €"},
			"2044.fr.pdf.txt":       {"Loyers bruts encaissés", "1 600,00 €", "Primes d'assurance", "480,00 €", "Revenu foncier taxable", "789,50 €", "Intérêts des emprunts", "210,00 €", "Provisions pour charges reçues des locataires (non imposables)", "300,00 €"},
			"sa105.en.pdf.txt":      {"Total rents and other income from property", "£1,900.00", "£480.00", "Property repairs and maintenance", "£120.50", "£1,299.50", "Residential property finance costs", "£210.00"},
			"schedule-e.en.pdf.txt": {"Rents received", "$1,900.00", "Insurance", "$480.00", "Depreciation expense or depletion", "$1,667.60", "Mortgage interest paid to banks, etc.", "$210.00", "Income or (loss)", "578.10"},
		}[name] {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, text)
			}
		}
	}
	golden.Dir(t, filepath.Join("testdata", "golden"), texts)
}

// TestTaxYearSpreadsheets: the CSV and XLSX in the reader's language,
// one row per line, the totals rows last, equal to the JSON.
func TestTaxYearSpreadsheets(t *testing.T) {
	app := testkit.Start(t, testkit.WithClock(time.Date(2025, 12, 15, 10, 0, 0, 0, time.UTC)))
	t.Cleanup(func() { paymentstest.CheckInvariants(t, app) })
	token, property := autumn(t, app, "DE", "de")
	var js taxYear
	app.Get("/api/v1/reports/tax-year?year=2025", token).Expect(http.StatusOK).JSON(&js)
	if js.Locale != "de" || js.Properties[0].Lines[0].Label != "Mieteinnahmen für Wohnungen (ohne Umlagen)" {
		t.Fatalf("JSON in the landlord's language: %+v", js)
	}

	res := app.Get("/api/v1/reports/tax-year?year=2025&format=csv&locale=de", token).Expect(http.StatusOK)
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(res.Header.Get("Content-Disposition"), `tax-year-anlage-v-2025.csv`) {
		t.Fatalf("CSV headers: %v", res.Header)
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(res.String(), "\ufeff")))
	r.Comma = ';'
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	lines := len(js.Properties[0].Lines)
	if len(rows) != 1+2*lines {
		t.Fatalf("%d rows, want the header, %d lines and %d totals: %v", len(rows), lines, lines, rows)
	}
	if strings.Join(rows[0], "|") != "Objekt-ID|Objekt|Währung|Zeile|Bezeichnung|Betrag" {
		t.Errorf("header %v", rows[0])
	}
	if got := strings.Join(rows[1], "|"); got != property+"|Wohnung 3|EUR|9|Mieteinnahmen für Wohnungen (ohne Umlagen)|1600,00" {
		t.Errorf("first line %s", got)
	}
	for i, l := range js.Totals[0].Lines {
		row := rows[1+lines+i]
		want := ""
		if l.Amount != nil {
			want = strings.Replace(l.Amount.String(), ".", ",", 1)
		}
		if row[0] != "Summe" || row[3] != l.Line || row[4] != l.Label || row[5] != want {
			t.Errorf("totals row %d %v, want %s %s %s", i, row, l.Line, l.Label, want)
		}
	}

	res = app.Get("/api/v1/reports/tax-year?year=2025&format=xlsx&locale=fr", token).Expect(http.StatusOK)
	x, err := xlsxreader.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	// Each row's cells by column letter (empty cells are not read).
	var sheet []map[string]xlsxreader.Cell
	for row := range x.ReadRows(x.Sheets[0]) {
		if row.Error != nil {
			t.Fatal(row.Error)
		}
		cells := map[string]xlsxreader.Cell{}
		for _, c := range row.Cells {
			cells[c.Column] = c
		}
		sheet = append(sheet, cells)
	}
	if len(sheet) != 1+2*lines {
		t.Fatalf("XLSX has %d rows", len(sheet))
	}
	if sheet[0]["D"].Value != "Ligne" || sheet[0]["E"].Value != "Libellé" || sheet[0]["F"].Value != "Montant" {
		t.Errorf("XLSX header %+v", sheet[0])
	}
	first := sheet[1]
	if first["E"].Value != "Loyers des logements (hors charges)" || first["F"].Type != xlsxreader.TypeNumerical || first["F"].Value != "1600" {
		t.Errorf("XLSX first line %+v", first)
	}
	last := sheet[len(sheet)-1]
	if last["A"].Value != "Total" || last["E"].Value != "Dépôts de garantie reçus (non imposables)" || last["F"].Value != "1500" {
		t.Errorf("XLSX last totals row %+v", last)
	}
}

// TestTaxYearRefusesBadInput: an unknown form, a year out of range, a
// malformed or foreign property, a format it does not write, or no form
// to take from the properties: a 400 or 404 that says which.
func TestTaxYearRefusesBadInput(t *testing.T) {
	app := testkit.Start(t)
	owner := accountstest.NewUser(t, app).Token
	other := accountstest.NewUser(t, app).Token
	foreign := id(t, app.Post("/api/v1/properties", other, map[string]any{"name": "Fremd", "country_code": "DE"}).Expect(http.StatusCreated))

	// No property: no country to take the form from.
	says(t, app.Get("/api/v1/reports/tax-year?year=2025", owner).Expect(http.StatusBadRequest), "form: is required")
	var empty taxYear
	app.Get("/api/v1/reports/tax-year?year=2025&form=anlage-v", owner).Expect(http.StatusOK).JSON(&empty)
	if len(empty.Properties) != 0 || len(empty.Totals) != 0 {
		t.Errorf("an empty workspace: %+v", empty)
	}

	de := id(t, app.Post("/api/v1/properties", owner, map[string]any{"name": "Berlin", "country_code": "DE"}).Expect(http.StatusCreated))
	for _, c := range []struct {
		query string
		code  int
		says  string
	}{
		{"form=anlage-x", 400, "form: must be one of anlage-v, 2044, sa105, schedule-e"},
		{"year=1999", 400, "year: must be a year from 2000 to 2100"},
		{"year=2101", 400, "year: must be a year from 2000 to 2100"},
		{"year=20x5", 400, "year: must be a year"},
		{"year=20255", 400, "year"},
		{"property_id=nope", 400, "property_id"},
		{"property_id=" + foreign, 404, "Property not found."},
		{"format=docx", 400, "format: must be one of json, csv, xlsx, pdf"},
		{"locale=zz", 400, "locale"},
	} {
		says(t, app.Get("/api/v1/reports/tax-year?"+c.query, owner).Expect(c.code), c.says)
	}
	// A workspace in two countries of two forms names the form.
	app.Post("/api/v1/properties", owner, map[string]any{"name": "Paris", "country_code": "FR"}).Expect(http.StatusCreated)
	says(t, app.Get("/api/v1/reports/tax-year?year=2025", owner).Expect(http.StatusBadRequest), "different forms")
	var fr taxYear
	app.Get("/api/v1/reports/tax-year?year=2025&form=2044", owner).Expect(http.StatusOK).JSON(&fr)
	if fr.Form != "2044" || len(fr.Properties) != 2 {
		t.Errorf("both properties on the 2044: %+v", fr)
	}
	// One property still takes its own country's form.
	var one taxYear
	app.Get("/api/v1/reports/tax-year?year=2025&property_id="+de, owner).Expect(http.StatusOK).JSON(&one)
	if one.Form != "anlage-v" || one.From != "2025-01-01" {
		t.Errorf("the Berlin flat: %+v", one)
	}
	// A country without a form of its own needs one named.
	at := id(t, app.Post("/api/v1/properties", owner, map[string]any{"name": "Wien", "country_code": "AT"}).Expect(http.StatusCreated))
	says(t, app.Get("/api/v1/reports/tax-year?property_id="+at, owner).Expect(http.StatusBadRequest), "no form is known for the country AT")
	app.Get("/api/v1/reports/tax-year?form=anlage-v&property_id="+at, owner).Expect(http.StatusOK)
}

// says checks that an answer's body holds text.
func says(t testing.TB, r *testkit.Response, text string) {
	t.Helper()
	if !strings.Contains(r.String(), text) {
		t.Errorf("%d %s does not say %q", r.Status, r.String(), text)
	}
}
