// Package csvcell writes CSV that a spreadsheet opens as data: a cell
// starting with = + - @ tab, CR or NUL is read by Excel, LibreOffice Calc
// and Google Sheets as a formula (OWASP "CSV injection"; ASVS 1.2.10), so
// such a cell gets a leading single quote, which they take as "text" and do
// not show. Every CSV the service writes goes through Writer (or Escape for
// a format of its own, such as XLSX); TestEveryCSVWriterEscapes fails on a
// writer that does not.
package csvcell

import (
	"encoding/csv"
	"io"
)

// Escape returns cell as a spreadsheet shows it as text: with a leading
// single quote when it starts with = + - @ tab, CR or NUL, unless it is a
// plain number (-12.50, +3, -0,5), which no spreadsheet runs and which
// must stay a number in a numeric column. The quote stays part of the
// cell for a program that reads the file as CSV.
func Escape(cell string) string {
	if cell == "" {
		return cell
	}
	switch cell[0] {
	case '+', '-':
		if plainNumber(cell[1:]) {
			return cell
		}
	case '=', '@', '\t', '\r', 0:
	default:
		return cell
	}
	return "'" + cell
}

// plainNumber reports whether s is digits with at most one decimal point
// or comma between them: nothing a spreadsheet could read as more than a
// number.
func plainNumber(s string) bool {
	digits, sep := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case (c == '.' || c == ',') && !sep && digits > 0 && i < len(s)-1:
			sep = true
		default:
			return false
		}
	}
	return digits > 0
}

// Writer is a csv.Writer that escapes every cell.
type Writer struct {
	w   *csv.Writer
	buf []string
}

// NewWriter returns a Writer to w, comma-separated with LF line ends, as
// encoding/csv writes by default.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: csv.NewWriter(w)}
}

// NewWriterComma is NewWriter with another cell separator (';' where the
// spreadsheet's list separator is one, as in German and French).
func NewWriterComma(w io.Writer, comma rune) *Writer {
	cw := csv.NewWriter(w)
	cw.Comma = comma
	return &Writer{w: cw}
}

// Write writes one record, each cell escaped.
func (w *Writer) Write(record []string) error {
	w.buf = w.buf[:0]
	for _, c := range record {
		w.buf = append(w.buf, Escape(c))
	}
	return w.w.Write(w.buf)
}

// Flush writes what is buffered to the underlying writer.
func (w *Writer) Flush() { w.w.Flush() }

// Error reports an error of a previous Write or Flush.
func (w *Writer) Error() error { return w.w.Error() }
