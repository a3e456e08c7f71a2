// Package export writes a table of typed rows as CSV or XLSX, one row at a
// time, so an export of 500,000 rows costs the memory of one row (CSV) or
// of excelize's stream buffer, which spills to a temporary file (XLSX).
// Text cells go through csvcell.Escape in both formats: a cell starting
// with = + - @ is never taken for a formula by the spreadsheet that opens
// the file. Money is a number with the currency's number format and dates
// are dates in XLSX; CSV writes money with two decimals and dates as
// YYYY-MM-DD.
package export

import (
	"bufio"
	"fmt"
	"io"
	"mime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/xuri/excelize/v2"

	"github.com/propman/propman/platform/csvcell"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The formats a table is served in.
const (
	JSON = "json"
	CSV  = "csv"
	XLSX = "xlsx"
)

// Media types of the formats.
const (
	CSVType  = "text/csv; charset=utf-8"
	XLSXType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// Kind is the type of a column's cells.
type Kind int

// The column kinds.
const (
	Text Kind = iota
	// Money cells are Money values (amount and currency).
	Money
	// Date cells are period.Date values (the zero date is an empty cell).
	Date
	// Int cells are int or int64.
	Int
	// Bool cells are bool.
	Bool
	// Time cells are time.Time (UTC).
	Time
	// Number cells are float64 (a decimal the API sends as a JSON number
	// that is not money, a meter reading say).
	Number
)

// Column is one column of a table.
type Column struct {
	Name string
	Kind Kind
	// Enum marks a column of codes (a status, a method, a kind), which a
	// file in another language than English shows in words.
	Enum bool
}

// Amount is a money cell.
type Amount struct {
	Value    money.Amount
	Currency string
}

// Writer takes the rows of one table.
type Writer interface {
	// Row writes one row, a value per column: string, Amount, period.Date,
	// int64/int, bool, time.Time, float64, or nil for an empty cell.
	Row(values ...any) error
	// Total writes a totals row (bold in XLSX), as Row.
	Total(values ...any) error
	// Close writes what is left; the output is complete only after it.
	Close() error
}

// Negotiate returns the format a request asks for: ?format=json|csv|xlsx,
// else its Accept header (text/csv, the XLSX media type), else JSON. An
// unknown ?format= or ?locale= is a 400.
func Negotiate(c *fiber.Ctx) (string, error) {
	if l := c.Query("locale"); l != "" && !slices.Contains(locales, l) {
		return "", fault.Validation("locale: must be one of " + strings.Join(locales, ", "))
	}
	switch f := c.Query("format"); f {
	case "":
	case JSON, CSV, XLSX:
		return f, nil
	default:
		return "", fault.Validation("format: must be one of json, csv, xlsx")
	}
	for _, part := range strings.Split(c.Get(fiber.HeaderAccept), ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mt {
		case "text/csv":
			return CSV, nil
		case XLSXType:
			return XLSX, nil
		case "application/json":
			return JSON, nil
		}
	}
	return JSON, nil
}

// locales are the languages a file may be asked for in (?locale=).
var locales = []string{"en", "de", "fr", "es", "uk"}

// decimalComma are the locales whose spreadsheets read a decimal comma:
// their CSV separates cells with a semicolon (Excel's list separator
// there) and writes 1234,56.
var decimalComma = map[string]bool{"de": true, "fr": true, "es": true, "uk": true}

// Style is how a CSV file is written for its reader: the cell separator
// and the decimal mark. Every CSV starts with a UTF-8 byte order mark,
// which tells Excel the file is UTF-8 (without it, it reads umlauts and
// accents as Windows-1252).
type Style struct {
	Comma   rune
	Decimal byte
}

// StyleOf is the CSV style the request asks for: ?locale=, else the first
// language of Accept-Language, else English (comma, decimal point).
func StyleOf(c *fiber.Ctx) Style {
	lang := c.Query("locale")
	if lang == "" {
		first, _, _ := strings.Cut(c.Get(fiber.HeaderAcceptLanguage), ",")
		first, _, _ = strings.Cut(strings.TrimSpace(first), ";")
		first, _, _ = strings.Cut(first, "-")
		lang = strings.ToLower(strings.TrimSpace(first))
	}
	return styleFor(lang)
}

func styleFor(lang string) Style {
	if decimalComma[lang] {
		return Style{Comma: ';', Decimal: ','}
	}
	return Style{Comma: ',', Decimal: '.'}
}

// Requested reports whether the request asks for CSV or XLSX.
func Requested(c *fiber.Ctx) bool {
	f, err := Negotiate(c)
	return err == nil && f != JSON
}

// New returns a writer of format (CSV or XLSX) to w with a header row, a
// CSV in the English style.
func New(w io.Writer, format, sheet string, cols []Column) (Writer, error) {
	return NewStyled(w, format, sheet, cols, Style{Comma: ',', Decimal: '.'})
}

// NewStyled is New with the CSV written in style.
func NewStyled(w io.Writer, format, sheet string, cols []Column, style Style) (Writer, error) {
	switch format {
	case CSV:
		return newCSV(w, cols, style)
	case XLSX:
		return newXLSX(w, sheet, cols)
	}
	return nil, fmt.Errorf("export: no writer for format %q", format)
}

// Words are the texts of one language's files: Word is the catalogue's
// text of key, false when it has none. Headers are "export.column.<name>",
// codes "export.value.<column>.<code>", the totals label "export.total";
// a file's own "export.column.<file>.<name>" and
// "export.value.<file>.<column>.<code>" (file: the name it is sent
// under, with "_" for "-": keys are dotted words) come first, for a column whose shared word would mislead there
// (a repair's category is not the cost category of a bill).
type Words func(key string) (string, bool)

// LocaleOf is the language a request asks its file in: ?locale=, else the
// first language of Accept-Language this service writes files in, else ""
// (the caller then takes the reader's profile language).
func LocaleOf(c *fiber.Ctx) string {
	// The constants of locales, never the request's bytes: the file is
	// written after the handler has returned.
	if l := c.Query("locale"); l != "" {
		if i := slices.Index(locales, l); i >= 0 {
			return locales[i]
		}
		return ""
	}
	for _, part := range strings.Split(c.Get(fiber.HeaderAcceptLanguage), ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		tag, _, _ = strings.Cut(tag, "-")
		if i := slices.Index(locales, strings.ToLower(strings.TrimSpace(tag))); i >= 0 {
			return locales[i]
		}
	}
	return ""
}

// TotalLabel is the first cell of a totals row in words' language
// ("Total" without words).
func TotalLabel(words Words) string {
	if words != nil {
		if t, ok := words("export.total"); ok {
			return t
		}
	}
	return "Total"
}

// Send answers c with the table that fill writes, in format (CSV or
// XLSX), as an attachment named name (without extension). fill runs after
// the handler has returned, while the body streams to the client: it must
// hold no value of the request (Fiber reuses those buffers) and use its
// own context. An error after the first bytes cuts the body short (the
// status is sent); the client sees a truncated file.
func Send(c *fiber.Ctx, format, name string, cols []Column, fill func(Writer) error) {
	SendIn(c, format, name, cols, "", nil, fill)
}

// SendIn is Send for a reader of locale (the request's, else their
// profile's; "": the request's style alone): the CSV in that language's
// style, and the headers and the Enum columns' codes in words (as they are
// without words, or where words has none): English files keep the API's
// field names and codes, which scripts read.
func SendIn(c *fiber.Ctx, format, name string, cols []Column, locale string, words Words, fill func(Writer) error) {
	if words != nil {
		key := strings.ReplaceAll(name, "-", "_")
		shown := make([]Column, len(cols))
		for i, col := range cols {
			shown[i] = col
			if t, ok := words("export.column." + key + "." + col.Name); ok {
				shown[i].Name = t
			} else if t, ok := words("export.column." + col.Name); ok {
				shown[i].Name = t
			}
		}
		inner, codes := fill, cols
		fill = func(w Writer) error {
			return inner(&translated{Writer: w, cols: codes, words: words, file: key})
		}
		cols = shown
	}
	ext, ctype := "csv", CSVType
	if format == XLSX {
		ext, ctype = "xlsx", XLSXType
	}
	c.Set(fiber.HeaderContentType, ctype)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+"."+ext+`"`)
	sheet := name
	style := StyleOf(c)
	if locale != "" {
		style = styleFor(locale)
	}
	c.Context().SetBodyStreamWriter(func(bw *bufio.Writer) {
		w, err := NewStyled(bw, format, sheet, cols, style)
		if err != nil {
			return
		}
		if err := fill(w); err != nil {
			return
		}
		if err := w.Close(); err != nil {
			return
		}
		_ = bw.Flush()
	})
}

// translated writes the codes of the Enum columns in words.
type translated struct {
	Writer
	cols  []Column
	words Words
	file  string
	cells []any
}

func (t *translated) in(values []any) []any {
	if len(values) != len(t.cols) {
		return values
	}
	if t.cells == nil {
		t.cells = make([]any, len(values))
	}
	for i, v := range values {
		t.cells[i] = v
		if s, ok := v.(string); ok && t.cols[i].Enum && s != "" {
			if w, ok := t.words("export.value." + t.file + "." + t.cols[i].Name + "." + s); ok {
				t.cells[i] = w
			} else if w, ok := t.words("export.value." + t.cols[i].Name + "." + s); ok {
				t.cells[i] = w
			}
		}
	}
	return t.cells
}

func (t *translated) Row(values ...any) error   { return t.Writer.Row(t.in(values)...) }
func (t *translated) Total(values ...any) error { return t.Writer.Total(t.in(values)...) }

// csvWriter writes rows through csvcell.
type csvWriter struct {
	w       *csvcell.Writer
	cols    []Column
	cells   []string
	n       int
	decimal byte
}

// bom is the UTF-8 byte order mark every CSV starts with.
const bom = "\ufeff"

func newCSV(w io.Writer, cols []Column, style Style) (*csvWriter, error) {
	if _, err := io.WriteString(w, bom); err != nil {
		return nil, err
	}
	cw := &csvWriter{w: csvcell.NewWriterComma(w, style.Comma), cols: cols, cells: make([]string, len(cols)), decimal: style.Decimal}
	for i, c := range cols {
		cw.cells[i] = c.Name
	}
	return cw, cw.w.Write(cw.cells)
}

func (w *csvWriter) Row(values ...any) error {
	if len(values) != len(w.cols) {
		return fmt.Errorf("export: %d values for %d columns", len(values), len(w.cols))
	}
	for i, v := range values {
		w.cells[i] = text(v)
		if w.decimal != '.' && isDecimal(v) {
			w.cells[i] = strings.Replace(w.cells[i], ".", string(w.decimal), 1)
		}
	}
	if err := w.w.Write(w.cells); err != nil {
		return err
	}
	// Flush now and then so the client sees rows while the query runs.
	if w.n++; w.n%1024 == 0 {
		w.w.Flush()
		return w.w.Error()
	}
	return nil
}

// Total is a row like any other in CSV, which has no bold.
func (w *csvWriter) Total(values ...any) error { return w.Row(values...) }

func (w *csvWriter) Close() error {
	w.w.Flush()
	return w.w.Error()
}

// isDecimal reports whether v is written with a decimal point: money and
// numbers, not dates or text.
func isDecimal(v any) bool {
	switch v.(type) {
	case Amount, *Amount, money.Amount, float64:
		return true
	}
	return false
}

// visible drops the control characters but tab and line breaks from a
// text cell. The API refuses them, but older rows may hold them: XML
// (so XLSX) cannot carry most of them (excelize writes U+FFFD), and in a
// CSV an escape sequence reaches whoever prints the file in a terminal.
func visible(s string) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return -1
		}
		return r
	}, s)
}

// text is a value as CSV writes it.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return visible(x)
	case Amount:
		return x.Value.String()
	case *Amount:
		if x == nil {
			return ""
		}
		return x.Value.String()
	case money.Amount:
		return x.String()
	case period.Date:
		if x.IsZero() {
			return ""
		}
		return x.String()
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case time.Time:
		if x.IsZero() {
			return ""
		}
		return x.UTC().Format(time.RFC3339)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// xlsxWriter writes one sheet with excelize's StreamWriter. A reader
// gets a sheet ready to read: the header bold, frozen above the rows and
// with a filter on every column, and each column as wide as what the
// first rows hold (widths must be set before the first row is written,
// so the first widthRows rows wait in memory until they are known).
type xlsxWriter struct {
	out   io.Writer
	f     *excelize.File
	sw    *excelize.StreamWriter
	sheet string
	cols  []Column
	row   int
	cells []any
	// money is the style of each currency's amounts, made on first use;
	// boldOf the bold twin of a style, for totals rows.
	money     map[string]int
	boldOf    map[int]int
	totals    [][]any
	date, ts  int
	plainNum  int
	bold      int
	closeOnce bool
	// pending are the first rows, held until the widths are known;
	// widths the characters each column needs so far.
	pending [][]any
	widths  []int
	started bool
}

// widthRows is how many rows the column widths are fitted to.
const widthRows = 200

func newXLSX(out io.Writer, sheet string, cols []Column) (*xlsxWriter, error) {
	f := excelize.NewFile()
	if len(sheet) > 31 {
		sheet = sheet[:31]
	}
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return nil, err
	}
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return nil, err
	}
	date := "yyyy-mm-dd"
	ts := "yyyy-mm-dd hh:mm:ss"
	w := &xlsxWriter{out: out, f: f, sw: sw, sheet: sheet, cols: cols, money: map[string]int{}, boldOf: map[int]int{}, cells: make([]any, len(cols)),
		widths: make([]int, len(cols))}
	if w.date, err = f.NewStyle(&excelize.Style{CustomNumFmt: &date}); err != nil {
		return nil, err
	}
	if w.ts, err = f.NewStyle(&excelize.Style{CustomNumFmt: &ts}); err != nil {
		return nil, err
	}
	if w.plainNum, err = f.NewStyle(&excelize.Style{NumFmt: 2}); err != nil {
		return nil, err
	}
	if w.bold, err = f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 11, Family: "Calibri"}}); err != nil {
		return nil, err
	}
	for i, c := range cols {
		w.widths[i] = utf8.RuneCountInString(c.Name)
	}
	return w, nil
}

// measure widens the columns to the characters of one row's cells.
func (w *xlsxWriter) measure(values []any) {
	for i, v := range values {
		n := 0
		switch x := v.(type) {
		case period.Date:
			n = 10
		case time.Time:
			n = 19
		case Amount, *Amount, money.Amount:
			n = len(text(x)) + 6 // thousands separators and the currency code
		default:
			for _, line := range strings.Split(text(x), "\n") {
				n = max(n, utf8.RuneCountInString(line))
			}
		}
		w.widths[i] = max(w.widths[i], n)
	}
}

// start sets the widths and the frozen header, then writes the header and
// the rows held so far.
func (w *xlsxWriter) start() error {
	w.started = true
	for i, n := range w.widths {
		if err := w.sw.SetColWidth(i+1, i+1, float64(min(max(n+2, 8), 60))); err != nil {
			return err
		}
	}
	if err := w.sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	header := make([]any, len(w.cols))
	for i, c := range w.cols {
		header[i] = excelize.Cell{StyleID: w.bold, Value: csvcell.Escape(c.Name)}
	}
	w.row = 1
	if err := w.sw.SetRow("A1", header); err != nil {
		return err
	}
	for _, values := range w.pending {
		if err := w.write(values); err != nil {
			return err
		}
	}
	w.pending = nil
	return nil
}

// moneyStyle is the number format of currency's amounts: two decimals and
// the ISO code, which every spreadsheet shows without a locale of its own.
func (w *xlsxWriter) moneyStyle(currency string) (int, error) {
	if id, ok := w.money[currency]; ok {
		return id, nil
	}
	if len(w.money) > 64 {
		return w.plainNum, nil
	}
	code := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, strings.ToUpper(currency))
	format := `#,##0.00`
	if code != "" {
		format += ` "` + code + `"`
	}
	id, err := w.f.NewStyle(&excelize.Style{CustomNumFmt: &format})
	if err != nil {
		return 0, err
	}
	w.money[currency] = id
	return id, nil
}

func (w *xlsxWriter) Row(values ...any) error {
	if len(values) != len(w.cols) {
		return fmt.Errorf("export: %d values for %d columns", len(values), len(w.cols))
	}
	if !w.started {
		w.measure(values)
		w.pending = append(w.pending, slices.Clone(values))
		if len(w.pending) < widthRows {
			return nil
		}
		return w.start()
	}
	return w.write(values)
}

// write writes one row of values.
func (w *xlsxWriter) write(values []any) error {
	for i, v := range values {
		cell, err := w.cell(v)
		if err != nil {
			return err
		}
		w.cells[i] = cell
	}
	w.row++
	axis, err := excelize.CoordinatesToCellName(1, w.row)
	if err != nil {
		return err
	}
	return w.sw.SetRow(axis, w.cells)
}

func (w *xlsxWriter) cell(v any) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return excelize.Cell{Value: csvcell.Escape(visible(x))}, nil
	case *Amount:
		if x == nil {
			return nil, nil
		}
		return w.cell(*x)
	case Amount:
		style, err := w.moneyStyle(x.Currency)
		if err != nil {
			return nil, err
		}
		return excelize.Cell{StyleID: style, Value: float64(x.Value) / 100}, nil
	case money.Amount:
		return excelize.Cell{StyleID: w.plainNum, Value: float64(x) / 100}, nil
	case period.Date:
		if x.IsZero() {
			return nil, nil
		}
		t, _ := time.Parse(time.DateOnly, x.String())
		return excelize.Cell{StyleID: w.date, Value: t}, nil
	case time.Time:
		if x.IsZero() {
			return nil, nil
		}
		return excelize.Cell{StyleID: w.ts, Value: x.UTC()}, nil
	case int, int64, float64, bool:
		return excelize.Cell{Value: x}, nil
	}
	return excelize.Cell{Value: csvcell.Escape(text(v))}, nil
}

// Total holds a totals row until Close: it comes after every row, and
// outside the filter's range, so sorting the rows leaves it at the end.
func (w *xlsxWriter) Total(values ...any) error {
	if len(values) != len(w.cols) {
		return fmt.Errorf("export: %d values for %d columns", len(values), len(w.cols))
	}
	w.totals = append(w.totals, slices.Clone(values))
	return nil
}

// bold is the bold twin of the cell style id (0: the default style).
func (w *xlsxWriter) boldStyle(id int) (int, error) {
	if id == 0 {
		return w.bold, nil
	}
	if b, ok := w.boldOf[id]; ok {
		return b, nil
	}
	st, err := w.f.GetStyle(id)
	if err != nil {
		return 0, err
	}
	st.Font = &excelize.Font{Bold: true, Size: 11, Family: "Calibri"}
	b, err := w.f.NewStyle(st)
	if err != nil {
		return 0, err
	}
	w.boldOf[id] = b
	return b, nil
}

// writeTotals writes the held totals rows, every cell bold.
func (w *xlsxWriter) writeTotals() error {
	for _, values := range w.totals {
		cells := make([]any, len(values))
		for i, v := range values {
			cell, err := w.cell(v)
			if err != nil {
				return err
			}
			c, ok := cell.(excelize.Cell)
			if !ok {
				c = excelize.Cell{}
			}
			if c.StyleID, err = w.boldStyle(c.StyleID); err != nil {
				return err
			}
			cells[i] = c
		}
		w.row++
		axis, err := excelize.CoordinatesToCellName(1, w.row)
		if err != nil {
			return err
		}
		if err := w.sw.SetRow(axis, cells); err != nil {
			return err
		}
	}
	return nil
}

func (w *xlsxWriter) Close() error {
	if w.closeOnce {
		return nil
	}
	w.closeOnce = true
	defer func() { _ = w.f.Close() }()
	if !w.started {
		if err := w.start(); err != nil {
			return err
		}
	}
	filtered := w.row
	// The filter covers the header and every row; set before the flush,
	// which writes it after the rows.
	last, err := excelize.CoordinatesToCellName(max(len(w.cols), 1), max(filtered, 1))
	if err != nil {
		return err
	}
	if err := w.f.AutoFilter(w.sheet, "A1:"+last, nil); err != nil {
		return err
	}
	if err := w.writeTotals(); err != nil {
		return err
	}
	if err := w.sw.Flush(); err != nil {
		return err
	}
	return w.f.Write(w.out)
}
