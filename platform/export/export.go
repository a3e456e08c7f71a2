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
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gofiber/fiber/v2"
	"github.com/xuri/excelize/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/csvcell"
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
	// Close writes what is left; the output is complete only after it.
	Close() error
}

// Negotiate returns the format a request asks for: ?format=json|csv|xlsx,
// else its Accept header (text/csv, the XLSX media type), else JSON. An
// unknown ?format= is a 400.
func Negotiate(c *fiber.Ctx) (string, error) {
	switch f := c.Query("format"); f {
	case "":
	case JSON, CSV, XLSX:
		return f, nil
	default:
		return "", apierror.Validation("format: must be one of json, csv, xlsx")
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

// Requested reports whether the request asks for CSV or XLSX.
func Requested(c *fiber.Ctx) bool {
	f, err := Negotiate(c)
	return err == nil && f != JSON
}

// New returns a writer of format (CSV or XLSX) to w with a header row.
func New(w io.Writer, format, sheet string, cols []Column) (Writer, error) {
	switch format {
	case CSV:
		return newCSV(w, cols)
	case XLSX:
		return newXLSX(w, sheet, cols)
	}
	return nil, fmt.Errorf("export: no writer for format %q", format)
}

// Send answers c with the table that fill writes, in format (CSV or
// XLSX), as an attachment named name (without extension). fill runs after
// the handler has returned, while the body streams to the client: it must
// hold no value of the request (Fiber reuses those buffers) and use its
// own context. An error after the first bytes cuts the body short (the
// status is sent); the client sees a truncated file.
func Send(c *fiber.Ctx, format, name string, cols []Column, fill func(Writer) error) {
	ext, ctype := "csv", CSVType
	if format == XLSX {
		ext, ctype = "xlsx", XLSXType
	}
	c.Set(fiber.HeaderContentType, ctype)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+"."+ext+`"`)
	sheet := name
	c.Context().SetBodyStreamWriter(func(bw *bufio.Writer) {
		w, err := New(bw, format, sheet, cols)
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

// csvWriter writes rows through csvcell.
type csvWriter struct {
	w     *csvcell.Writer
	cols  []Column
	cells []string
	n     int
}

func newCSV(w io.Writer, cols []Column) (*csvWriter, error) {
	cw := &csvWriter{w: csvcell.NewWriter(w), cols: cols, cells: make([]string, len(cols))}
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

func (w *csvWriter) Close() error {
	w.w.Flush()
	return w.w.Error()
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

// xlsxWriter writes one sheet with excelize's StreamWriter.
type xlsxWriter struct {
	out   io.Writer
	f     *excelize.File
	sw    *excelize.StreamWriter
	cols  []Column
	row   int
	cells []any
	// money is the style of each currency's amounts, made on first use.
	money     map[string]int
	date, ts  int
	plainNum  int
	closeOnce bool
}

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
	w := &xlsxWriter{out: out, f: f, sw: sw, cols: cols, money: map[string]int{}, cells: make([]any, len(cols))}
	if w.date, err = f.NewStyle(&excelize.Style{CustomNumFmt: &date}); err != nil {
		return nil, err
	}
	if w.ts, err = f.NewStyle(&excelize.Style{CustomNumFmt: &ts}); err != nil {
		return nil, err
	}
	if w.plainNum, err = f.NewStyle(&excelize.Style{NumFmt: 2}); err != nil {
		return nil, err
	}
	header := make([]any, len(cols))
	for i, c := range cols {
		header[i] = excelize.Cell{Value: csvcell.Escape(c.Name)}
	}
	w.row = 1
	return w, sw.SetRow("A1", header)
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

func (w *xlsxWriter) Close() error {
	if w.closeOnce {
		return nil
	}
	w.closeOnce = true
	defer func() { _ = w.f.Close() }()
	if err := w.sw.Flush(); err != nil {
		return err
	}
	return w.f.Write(w.out)
}
