package reports_test

import (
	"encoding/xml"
	"strconv"
	"strings"
	"testing"

	"github.com/thedatashed/xlsxreader"
)

// readXLSXWithGo reads the first sheet as the Python reader does: a cell
// per column up to the widest row, typed, with its number format.
func readXLSXWithGo(t *testing.T, body []byte) xsheet {
	t.Helper()
	f, err := xlsxreader.NewReader(body)
	if err != nil {
		t.Fatalf("xlsxreader: %v", err)
	}
	if len(f.Sheets) == 0 {
		t.Fatal("xlsxreader: no sheet")
	}
	formats := xlsxFormats(t, body)
	out := xsheet{Sheet: f.Sheets[0]}
	width := 0
	for row := range f.ReadRows(f.Sheets[0]) {
		if row.Error != nil {
			t.Fatalf("xlsxreader: row %d: %v", row.Index, row.Error)
		}
		for len(out.Rows) < row.Index {
			out.Rows = append(out.Rows, nil)
		}
		cells := out.Rows[row.Index-1]
		for _, c := range row.Cells {
			i := c.ColumnIndex()
			for len(cells) <= i {
				cells = append(cells, xcell{T: "none"})
			}
			ref := c.Column + strconv.Itoa(c.Row)
			switch c.Type {
			case xlsxreader.TypeNumerical:
				v, err := strconv.ParseFloat(c.Value, 64)
				if err != nil {
					t.Fatalf("cell %s: number %q: %v", ref, c.Value, err)
				}
				cells[i] = xcell{T: "num", V: v, F: formats[ref]}
			case xlsxreader.TypeDateTime:
				cells[i] = xcell{T: "date", V: c.Value[:min(10, len(c.Value))], F: formats[ref]}
			case xlsxreader.TypeBoolean:
				cells[i] = xcell{T: "bool", V: c.Value == "1" || c.Value == "true"}
			default:
				cells[i] = xcell{T: "str", V: c.Value}
			}
		}
		out.Rows[row.Index-1] = cells
		width = max(width, len(cells))
	}
	for i := range out.Rows {
		for len(out.Rows[i]) < width {
			out.Rows[i] = append(out.Rows[i], xcell{T: "none"})
		}
	}
	return out
}

// xlsxFormats maps each styled cell of the first sheet (A1...) to its
// number format code, read from the package's XML: the cell's style
// index, the style's numFmtId, and the format's code (or the built-in
// one openpyxl names for the ids a writer may leave implicit).
func xlsxFormats(t *testing.T, body []byte) map[string]string {
	t.Helper()
	read := func(name string) []byte { return zipFile(t, body, name) }
	var styles struct {
		NumFmts []struct {
			ID   int    `xml:"numFmtId,attr"`
			Code string `xml:"formatCode,attr"`
		} `xml:"numFmts>numFmt"`
		Xfs []struct {
			NumFmtID int `xml:"numFmtId,attr"`
		} `xml:"cellXfs>xf"`
	}
	if err := xml.Unmarshal(read("xl/styles.xml"), &styles); err != nil {
		t.Fatalf("styles.xml: %v", err)
	}
	codes := map[int]string{0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 14: "mm-dd-yy", 22: "m/d/yy h:mm"}
	for _, f := range styles.NumFmts {
		codes[f.ID] = f.Code
	}
	var sheet struct {
		Rows []struct {
			Cells []struct {
				Ref   string `xml:"r,attr"`
				Style int    `xml:"s,attr"`
			} `xml:"c"`
		} `xml:"sheetData>row"`
	}
	if err := xml.Unmarshal(read("xl/worksheets/sheet1.xml"), &sheet); err != nil {
		t.Fatalf("sheet1.xml: %v", err)
	}
	out := map[string]string{}
	for _, r := range sheet.Rows {
		for _, c := range r.Cells {
			code := "General"
			if c.Style < len(styles.Xfs) {
				code = codes[styles.Xfs[c.Style].NumFmtID]
			}
			out[strings.ToUpper(c.Ref)] = code
		}
	}
	return out
}
