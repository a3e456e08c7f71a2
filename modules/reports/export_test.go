package reports_test

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

// readXLSX is the Python (openpyxl) reader: every cell with its type and
// number format, as JSON.
const readXLSX = `import sys, json, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb.active
rows = []
for row in ws.iter_rows():
    out = []
    for c in row:
        v = c.value
        if isinstance(v, datetime.datetime):
            out.append({"t": "date", "v": v.date().isoformat(), "f": c.number_format})
        elif isinstance(v, bool):
            out.append({"t": "bool", "v": v})
        elif isinstance(v, (int, float)):
            out.append({"t": "num", "v": v, "f": c.number_format})
        elif v is None:
            out.append({"t": "none"})
        else:
            out.append({"t": "str", "v": str(v)})
    rows.append(out)
print(json.dumps({"sheet": ws.title, "rows": rows}))
`

type xcell struct {
	T string `json:"t"`
	V any    `json:"v"`
	F string `json:"f"`
}

type xsheet struct {
	Sheet string    `json:"sheet"`
	Rows  [][]xcell `json:"rows"`
}

// openXLSX reads an XLSX file with two readers that share no code with
// excelize, which writes it: thedatashed/xlsxreader for the cells, the
// number formats straight from styles.xml (xlsxFormats), and, where it is
// installed (always in CI), Python's openpyxl, which must read the same.
func openXLSX(t *testing.T, body []byte) xsheet {
	t.Helper()
	s := readXLSXWithGo(t, body)
	if py, ok := pythonReader(t); ok {
		path := filepath.Join(t.TempDir(), "report.xlsx")
		if err := os.WriteFile(path, body, 0o600); err != nil {
			t.Fatal(err)
		}
		var p xsheet
		if err := json.Unmarshal(requires.RunPython(t, py, readXLSX, path), &p); err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(s), fmt.Sprint(p); got != want {
			t.Fatalf("the Go reader and openpyxl disagree:\nGo:     %.2000s\nPython: %.2000s", got, want)
		}
	}
	return s
}

// readCSV reads a CSV file of the service: it starts with a UTF-8 byte
// order mark (Excel reads it as UTF-8 then), and in the English style
// separates cells with commas.
func readCSV(t *testing.T, body []byte) [][]string {
	t.Helper()
	return readCSVWith(t, body, ',')
}

func readCSVWith(t *testing.T, body []byte, comma rune) [][]string {
	t.Helper()
	rest, ok := bytes.CutPrefix(body, []byte("\ufeff"))
	if !ok {
		t.Fatalf("csv without a byte order mark: %.60q", body)
	}
	r := csv.NewReader(bytes.NewReader(rest))
	r.Comma = comma
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("csv: %v\n%s", err, body)
	}
	return rows
}

// escaped is a text cell as the files must carry it.
func escaped(s string) string {
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}

// TestReportsAsCSVAndXLSX fetches each report as JSON, CSV (by ?format and
// by Accept) and XLSX, reads the files with encoding/csv and openpyxl, and
// compares every cell with the JSON: amounts are numbers with the
// currency's format, dates are dates, and text starting with = + - @ is
// escaped.
func TestReportsAsCSVAndXLSX(t *testing.T) {
	app := testkit.Start(t)
	p := generate(t, app, 6, 7)
	for _, report := range []string{"arrears", "rent-roll", "income"} {
		path := base + "/" + report + "?as_of=2026-11-22"
		key := map[string]string{"arrears": "arrears", "rent-roll": "units", "income": "months"}[report]
		if report == "income" {
			path = base + "/income?year=2026"
		}
		var doc map[string]json.RawMessage
		app.Get(path, p.user.Token).Expect(http.StatusOK).JSON(&doc)
		var items []map[string]any
		dec := json.NewDecoder(bytes.NewReader(doc[key]))
		dec.UseNumber()
		if err := dec.Decode(&items); err != nil || len(items) == 0 {
			t.Fatalf("%s: %v %s", report, err, doc[key])
		}

		byQuery := app.Get(path+"&format=csv", p.user.Token).Expect(http.StatusOK)
		byAccept := app.Do(testkit.Request{Method: http.MethodGet, Path: path, Token: p.user.Token, Headers: map[string]string{"Accept": "text/csv"}}).Expect(http.StatusOK)
		if !strings.HasPrefix(byQuery.Header.Get("Content-Type"), "text/csv") || !bytes.Equal(byQuery.Body, byAccept.Body) ||
			!strings.Contains(byQuery.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("%s: csv %q / accept %q", report, byQuery.Header, byAccept.Header)
		}
		var totals []map[string]any
		dec = json.NewDecoder(bytes.NewReader(doc["totals"]))
		dec.UseNumber()
		if err := dec.Decode(&totals); err != nil || len(totals) == 0 {
			t.Fatalf("%s: totals %v %s", report, err, doc["totals"])
		}
		rows := readCSV(t, byQuery.Body)
		header := rows[0]
		if len(rows)-1 != len(items)+len(totals) {
			t.Fatalf("%s: %d csv rows, %d json items and %d totals", report, len(rows)-1, len(items), len(totals))
		}
		xres := app.Do(testkit.Request{Method: http.MethodGet, Path: path, Token: p.user.Token,
			Headers: map[string]string{"Accept": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}}).Expect(http.StatusOK)
		x := openXLSX(t, xres.Body)
		if len(x.Rows) != len(rows) {
			t.Fatalf("%s: %d xlsx rows, %d csv rows", report, len(x.Rows), len(rows))
		}
		checkTotals(t, report, "Total", header, totals, rows[len(items)+1:], x.Rows[len(items)+1:], boldRows(t, xres.Body), len(items)+2)
		for i, item := range items {
			for j, col := range header {
				if x.Rows[0][j].V != col {
					t.Errorf("%s: xlsx header %d is %v, csv %s", report, j, x.Rows[0][j].V, col)
				}
				want, ok := item[col]
				if !ok {
					t.Fatalf("%s: csv column %s is no JSON field", report, col)
				}
				got, cell := rows[i+1][j], x.Rows[i+1][j]
				switch v := want.(type) {
				case nil:
					if got != "" || cell.T != "none" {
						t.Errorf("%s row %d %s: null is csv %q, xlsx %+v", report, i, col, got, cell)
					}
				case json.Number:
					f, _ := v.Float64()
					if got != fmt.Sprintf("%.2f", f) {
						t.Errorf("%s row %d %s: csv %q, json %s", report, i, col, got, v)
					}
					cur, _ := item["currency"].(string)
					if cell.T != "num" || fmt.Sprintf("%.2f", cell.V) != fmt.Sprintf("%.2f", f) || !strings.Contains(cell.F, cur) || !strings.Contains(cell.F, "0.00") {
						t.Errorf("%s row %d %s: xlsx %+v, json %s %s", report, i, col, cell, v, cur)
					}
				case string:
					isDate := strings.HasSuffix(col, "_date") || col == "as_of"
					switch {
					case isDate:
						if got != v || cell.T != "date" || cell.V != v {
							t.Errorf("%s row %d %s: csv %q, xlsx %+v, json %q", report, i, col, got, cell, v)
						}
					default:
						if got != escaped(v) || cell.T != "str" || cell.V != escaped(v) {
							t.Errorf("%s row %d %s: csv %q, xlsx %+v, json %q", report, i, col, got, cell, v)
						}
					}
				}
			}
		}
	}
	// The generated names that look like formulas reached the files escaped.
	body := app.Get(base+"/rent-roll?format=csv", p.user.Token).Expect(http.StatusOK).String()
	for _, s := range []string{`'=HYPERLINK(`, `'@Berlin`, `'-Minus +Plus`} {
		if !strings.Contains(body, s) {
			t.Errorf("rent roll csv has no %s:\n%s", s, body)
		}
	}
	// Every charge of the workspace, with its outstanding amount.
	var all int
	var sum int64
	for _, u := range p.units {
		for _, c := range p.charges(t, u) {
			all++
			if c.Status != "cancelled" {
				sum += cents(c.Amount) - cents(c.PaidAmount)
			}
		}
	}
	rows := readCSV(t, app.Get(base+"/charges", p.user.Token).Expect(http.StatusOK).Body)
	x := openXLSX(t, app.Get(base+"/charges?format=xlsx", p.user.Token).Expect(http.StatusOK).Body)
	if len(rows)-1 != all || len(x.Rows) != len(rows) {
		t.Fatalf("charges: %d csv rows, %d xlsx rows, %d charges", len(rows)-1, len(x.Rows)-1, all)
	}
	var csvSum, xSum int64
	for i, r := range rows[1:] {
		var f float64
		fmt.Sscanf(r[11], "%f", &f)
		csvSum += cents(f)
		xSum += cents(x.Rows[i+1][11].V.(float64))
	}
	if csvSum != sum || xSum != sum {
		t.Errorf("charges outstanding: csv %d, xlsx %d, lists %d", csvSum, xSum, sum)
	}
}

// A CSV for a German or French reader separates cells with ';' and
// writes a decimal comma (?locale=, else Accept-Language), so Excel there
// opens it in columns with numbers as numbers; every CSV starts with a
// byte order mark; an unknown ?locale= is a 400.
func TestCSVInTheReadersStyle(t *testing.T) {
	app := testkit.Start(t)
	p := generate(t, app, 1, 3)
	path := base + "/rent-roll?as_of=2026-11-22"
	en := readCSV(t, app.Get(path+"&format=csv", p.user.Token).Expect(http.StatusOK).Body)
	rent := indexOf(en[0], "rent")
	for _, ask := range []testkit.Request{
		{Path: path + "&format=csv&locale=de"},
		{Path: path + "&format=csv", Headers: map[string]string{"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}},
	} {
		ask.Method, ask.Token = http.MethodGet, p.user.Token
		rows := readCSVWith(t, app.Do(ask).Expect(http.StatusOK).Body, ';')
		if len(rows) != len(en) || len(rows[0]) != len(en[0]) {
			t.Fatalf("%s: %d rows of %d cells, English %d of %d", ask.Path, len(rows), len(rows[0]), len(en), len(en[0]))
		}
		for i := 1; i < len(rows); i++ {
			if want := strings.Replace(en[i][rent], ".", ",", 1); rows[i][rent] != want || !strings.Contains(want, ",") {
				t.Errorf("%s row %d: rent %q, want %q", ask.Path, i, rows[i][rent], want)
			}
		}
	}
	res := app.Get(path+"&format=csv&locale=xx", p.user.Token)
	if res.Status != http.StatusBadRequest || !strings.Contains(res.String(), "locale") {
		t.Errorf("an unknown locale: %d %s", res.Status, res.Body)
	}
	// The lists too, their headers in German.
	rows := readCSVWith(t, app.Get("/api/v1/properties?format=csv&locale=de", p.user.Token).Expect(http.StatusOK).Body, ';')
	if len(rows) < 2 || !slices.Contains(rows[0], "Bezeichnung") {
		t.Errorf("the properties list in the German style: %q", rows)
	}
}

// An XLSX opens ready to read: the header bold, frozen, with a filter over
// every column and row, and each column as wide as its content.
func TestXLSXOpensReadyToRead(t *testing.T) {
	app := testkit.Start(t)
	p := generate(t, app, 1, 3)
	long := strings.Repeat("Lindenstraße ", 4) + "5"
	app.Post("/api/v1/properties", p.user.Token, map[string]any{"name": long, "country_code": "DE"}).Expect(http.StatusCreated)
	body := app.Get("/api/v1/properties?format=xlsx", p.user.Token).Expect(http.StatusOK).Body
	x := openXLSX(t, body)
	sheet := string(zipFile(t, body, "xl/worksheets/sheet1.xml"))
	if !strings.Contains(sheet, `state="frozen"`) || !strings.Contains(sheet, `topLeftCell="A2"`) {
		t.Errorf("the header is not frozen: %.600s", sheet)
	}
	last := "$" + string(rune('A'+len(x.Rows[0])-1)) + "$" + fmt.Sprint(len(x.Rows))
	if !strings.Contains(sheet, `<autoFilter ref="$A$1:`+last+`"`) {
		t.Errorf("no filter over A1:%s: %.2000s", last, sheet)
	}
	name := indexOf(func() []string {
		var h []string
		for _, c := range x.Rows[0] {
			h = append(h, fmt.Sprint(c.V))
		}
		return h
	}(), "name")
	col := fmt.Sprintf(`<col min="%d" max="%d" width="`, name+1, name+1)
	i := strings.Index(sheet, col)
	if i < 0 {
		t.Fatalf("no width for the name column: %.600s", sheet)
	}
	var width float64
	fmt.Sscanf(sheet[i+len(col):], "%g", &width)
	if width < float64(len([]rune(long))) {
		t.Errorf("the name column is %g wide for a name of %d characters", width, len([]rune(long)))
	}
	styles := string(zipFile(t, body, "xl/styles.xml"))
	if !strings.Contains(styles, `<b val="1">`) {
		t.Errorf("no bold font for the header: %.600s", styles)
	}
	if !strings.Contains(sheet, `<c r="A1" s="`) {
		t.Errorf("the header cell has no style: %.600s", sheet)
	}
}

func zipFile(t *testing.T, body []byte, name string) []byte {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range z.File {
		if f.Name == name {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			b, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	t.Fatalf("no %s in the file", name)
	return nil
}

// checkTotals compares the files' totals rows (csv, xlsx) with the JSON
// answer's totals: the label in the first cell, each total of a column to
// the cent, and every cell of the XLSX row bold.
func checkTotals(t *testing.T, report, label string, header []string, totals []map[string]any, csvRows [][]string, xRows [][]xcell, bold map[int]bool, first int) {
	t.Helper()
	for k, tot := range totals {
		r, xr := csvRows[k], xRows[k]
		if r[0] != label || xr[0].V != label {
			t.Errorf("%s totals %d: label csv %q, xlsx %v, want %q", report, k, r[0], xr[0].V, label)
		}
		compared := 0
		for j, col := range header {
			switch v := tot[col].(type) {
			case json.Number:
				f, _ := v.Float64()
				got := strings.Replace(r[j], ",", ".", 1)
				if got != fmt.Sprintf("%.2f", f) || xr[j].T != "num" || fmt.Sprintf("%.2f", xr[j].V) != fmt.Sprintf("%.2f", f) {
					t.Errorf("%s totals %d %s: csv %q, xlsx %+v, json %s", report, k, col, r[j], xr[j], v)
				}
				compared++
			case string:
				if r[j] != v {
					t.Errorf("%s totals %d %s: csv %q, json %q", report, k, col, r[j], v)
				}
			}
		}
		if compared < 3 {
			t.Errorf("%s totals %d: only %d amounts compared (header %q)", report, k, compared, header)
		}
		if !bold[first+k] {
			t.Errorf("%s totals %d (row %d): not bold (%v)", report, k, first+k, bold)
		}
	}
}

// boldRows are the rows of the first sheet (by number, from 1) whose
// every cell has a bold font.
func boldRows(t *testing.T, body []byte) map[int]bool {
	t.Helper()
	var styles struct {
		Fonts []struct {
			B *struct{} `xml:"b"`
		} `xml:"fonts>font"`
		Xfs []struct {
			FontID int `xml:"fontId,attr"`
		} `xml:"cellXfs>xf"`
	}
	if err := xml.Unmarshal(zipFile(t, body, "xl/styles.xml"), &styles); err != nil {
		t.Fatal(err)
	}
	var sheet struct {
		Rows []struct {
			R     int `xml:"r,attr"`
			Cells []struct {
				S int `xml:"s,attr"`
			} `xml:"c"`
		} `xml:"sheetData>row"`
	}
	if err := xml.Unmarshal(zipFile(t, body, "xl/worksheets/sheet1.xml"), &sheet); err != nil {
		t.Fatal(err)
	}
	out := map[int]bool{}
	for _, row := range sheet.Rows {
		all := len(row.Cells) > 0
		for _, c := range row.Cells {
			all = all && c.S < len(styles.Xfs) && styles.Xfs[c.S].FontID < len(styles.Fonts) && styles.Fonts[styles.Xfs[c.S].FontID].B != nil
		}
		out[row.R] = all
	}
	return out
}

// A German reader's files speak German (?locale=, Accept-Language, else
// the profile): headers and codes from the catalogue, totals labelled
// "Summe" and equal to the JSON totals; English files keep the API's
// field names and codes.
func TestFilesInTheReadersLanguage(t *testing.T) {
	app := testkit.Start(t)
	p := generate(t, app, 3, 5)
	path := base + "/arrears?as_of=2026-11-22"
	var doc map[string]json.RawMessage
	app.Get(path, p.user.Token).Expect(http.StatusOK).JSON(&doc)
	var items, totals []map[string]any
	for key, into := range map[string]*[]map[string]any{"arrears": &items, "totals": &totals} {
		dec := json.NewDecoder(bytes.NewReader(doc[key]))
		dec.UseNumber()
		if err := dec.Decode(into); err != nil {
			t.Fatal(err)
		}
	}
	if len(items) == 0 || len(totals) == 0 {
		t.Fatalf("no arrears: %s", doc["arrears"])
	}
	// The profile's language when nothing else is asked.
	app.Put("/api/v1/user/profile", p.user.Token, map[string]any{"locale": "de"}).Expect(http.StatusOK)
	rows := readCSVWith(t, app.Get(path+"&format=csv", p.user.Token).Expect(http.StatusOK).Body, ';')
	xres := app.Get(path+"&format=xlsx", p.user.Token).Expect(http.StatusOK)
	x := openXLSX(t, xres.Body)
	for _, want := range []string{"Objekt", "Vertragsnummer", "Mieter", "Währung", "Über 90 Tage überfällig", "Gesamt", "Älteste Fälligkeit"} {
		if !slices.Contains(rows[0], want) {
			t.Errorf("German csv header %q lacks %q", rows[0], want)
		}
	}
	for j, h := range rows[0] {
		if x.Rows[0][j].V != h {
			t.Errorf("xlsx header %d is %v, csv %q", j, x.Rows[0][j].V, h)
		}
	}
	// The JSON's field names, in the German file's column order.
	english := readCSV(t, app.Get(path+"&format=csv&locale=en", p.user.Token).Expect(http.StatusOK).Body)
	if english[0][0] != "property_id" || len(english) != len(rows) {
		t.Fatalf("the English file: %q (%d rows, German %d)", english[0], len(english), len(rows))
	}
	checkTotals(t, "arrears de", "Summe", english[0], totals, rows[len(items)+1:], x.Rows[len(items)+1:], boldRows(t, xres.Body), len(items)+2)

	// Codes in words: a charge's status and kind.
	charges := readCSVWith(t, app.Get(base+"/charges?format=csv", p.user.Token).Expect(http.StatusOK).Body, ';')
	cx := openXLSX(t, app.Get(base+"/charges?format=xlsx", p.user.Token).Expect(http.StatusOK).Body)
	status, kind := indexOf(charges[0], "Status"), indexOf(charges[0], "Art")
	seen := map[string]bool{}
	for i, r := range charges[1:] {
		seen[r[status]] = true
		if r[kind] != "Forderung" && r[kind] != "Verzugszuschlag" && r[kind] != "Vertragsstrafe" {
			t.Errorf("charge %d: kind %q", i, r[kind])
		}
		if cx.Rows[i+1][status].V != r[status] {
			t.Errorf("charge %d: xlsx status %v, csv %q", i, cx.Rows[i+1][status].V, r[status])
		}
	}
	if !seen["offen"] || seen["unpaid"] {
		t.Errorf("German statuses: %v", seen)
	}
	// The API's list of charges in French, by Accept-Language.
	u := p.units[0]
	fr := readCSVWith(t, app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/properties/" + u.ID + "/charges?format=csv", Token: p.user.Token,
		Headers: map[string]string{"Accept-Language": "fr-FR"}}).Expect(http.StatusOK).Body, ';')
	st := indexOf(fr[0], "Statut")
	if indexOf(fr[0], "Date d'échéance") < 0 || (fr[1][st] != "impayé" && fr[1][st] != "payé" && fr[1][st] != "partiellement payé" && fr[1][st] != "annulé") {
		t.Errorf("French charges: %q / %q", fr[0], fr[1])
	}
}
