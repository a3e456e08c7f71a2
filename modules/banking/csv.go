package banking

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"

	"github.com/propman/propman/platform/period"
)

// CSVMapping says which columns of a bank's CSV export hold what, by
// their header names.
type CSVMapping struct {
	// Delimiter is one character, ";" by default (German banks' exports).
	Delimiter string `json:"delimiter"`
	// DateFormat is DD.MM.YYYY (default), YYYY-MM-DD, DD/MM/YYYY or MM/DD/YYYY.
	DateFormat string `json:"date_format"`
	// DecimalComma reads 1.234,56; otherwise 1,234.56.
	DecimalComma bool   `json:"decimal_comma"`
	Date         string `json:"date"`
	Amount       string `json:"amount"`
	Name         string `json:"name"`
	IBAN         string `json:"iban"`
	Text         string `json:"text"`
	Reference    string `json:"reference"`
}

var dateFormats = map[string]func(string) string{
	"DD.MM.YYYY": func(s string) string { return dmy(s, ".") },
	"DD/MM/YYYY": func(s string) string { return dmy(s, "/") },
	"YYYY-MM-DD": func(s string) string { return s },
	"MM/DD/YYYY": func(s string) string {
		p := strings.Split(s, "/")
		if len(p) != 3 {
			return ""
		}
		return p[2] + "-" + pad2(p[0]) + "-" + pad2(p[1])
	},
}

func dmy(s, sep string) string {
	p := strings.Split(s, sep)
	if len(p) != 3 {
		return ""
	}
	if len(p[2]) == 2 {
		p[2] = "20" + p[2]
	}
	return p[2] + "-" + pad2(p[1]) + "-" + pad2(p[0])
}

func pad2(s string) string {
	if len(s) == 1 {
		return "0" + s
	}
	return s
}

// check returns one message per broken rule of the mapping.
func (m *CSVMapping) check() []string {
	var out []string
	if m.Delimiter == "" {
		m.Delimiter = ";"
	}
	if m.DateFormat == "" {
		m.DateFormat = "DD.MM.YYYY"
	}
	if len([]rune(m.Delimiter)) != 1 || m.Delimiter == "\"" || m.Delimiter == "\n" || m.Delimiter == "\r" {
		out = append(out, "mapping.delimiter: must be one character other than a quote or a line break")
	}
	if _, ok := dateFormats[m.DateFormat]; !ok {
		out = append(out, "mapping.date_format: must be one of DD.MM.YYYY, DD/MM/YYYY, YYYY-MM-DD, MM/DD/YYYY")
	}
	if strings.TrimSpace(m.Date) == "" {
		out = append(out, "mapping.date: is required (the header of the booking date's column)")
	}
	if strings.TrimSpace(m.Amount) == "" {
		out = append(out, "mapping.amount: is required (the header of the amount's column)")
	}
	return out
}

func (m *CSVMapping) columns() []string {
	var out []string
	for _, c := range []string{m.Date, m.Amount, m.Name, m.IBAN, m.Text, m.Reference} {
		if c != "" {
			out = append(out, c)
		}
	}
	return out
}

func parseCSV(in io.Reader, m *CSVMapping, emit func(*Line) error) error {
	if m == nil {
		return parseErr("unsupported_format", "The file is none of CAMT.053, MT940 or OFX; a CSV file needs a column mapping (mapping_id or mapping).")
	}
	br := bufio.NewReader(in)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	r := csv.NewReader(br)
	r.Comma = []rune(m.Delimiter)[0]
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = false
	var (
		index map[string]int
		// best is the early row naming most of the mapping's columns: what
		// a missing column is told against when no row names the date's.
		best     map[string]int
		bestHits = -1
		row      int
	)
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		row++
		var perr *csv.ParseError
		if err != nil && !errors.As(err, &perr) {
			return err
		}
		if err != nil {
			return parseErr("malformed_file", "CSV row %d: %s.", row, err.Error())
		}
		if row > MaxLines+20 {
			return parseErr("too_many_lines", "The file has more than %d rows.", MaxLines)
		}
		if index == nil {
			// Bank exports start with a preamble (account, period): the
			// header is the first row that names the date column.
			if h := headerIndex(rec); len(m.columns())-len(missingColumns(m, h)) > bestHits {
				best, bestHits = h, len(m.columns())-len(missingColumns(m, h))
			}
			if row > 20 {
				break
			}
			for _, cell := range rec {
				if strings.TrimSpace(cell) == m.Date {
					index = map[string]int{}
					for i, c := range rec {
						index[strings.TrimSpace(c)] = i
					}
					break
				}
			}
			if index != nil {
				if missing := missingColumns(m, index); len(missing) > 0 {
					return missingErr(missing)
				}
			}
			continue
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		l, err := csvLine(m, index, rec, row)
		if err != nil {
			return err
		}
		if err := emit(l); err != nil {
			return err
		}
	}
	if index == nil {
		return missingErr(missingColumns(m, best))
	}
	return nil
}

func headerIndex(rec []string) map[string]int {
	out := map[string]int{}
	for i, c := range rec {
		out[strings.TrimSpace(c)] = i
	}
	return out
}

func missingColumns(m *CSVMapping, index map[string]int) []string {
	var out []string
	for _, c := range m.columns() {
		if _, ok := index[c]; !ok {
			out = append(out, c)
		}
	}
	return out
}

func missingErr(missing []string) error {
	return parseErr("missing_columns", "The CSV file has no column named %s (the mapping's names must be the header's).",
		`"`+strings.Join(missing, `", "`)+`"`)
}

func csvLine(m *CSVMapping, index map[string]int, rec []string, row int) (*Line, error) {
	cell := func(name string) string {
		if name == "" {
			return ""
		}
		i := index[name]
		if i >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	d, err := period.ParseDate(dateFormats[m.DateFormat](cell(m.Date)))
	if err != nil {
		return nil, parseErr("malformed_file", "CSV row %d: %q is not a date of the form %s.", row, clean(cell(m.Date), 40), m.DateFormat)
	}
	raw := cell(m.Amount)
	if m.DecimalComma {
		raw = strings.ReplaceAll(strings.ReplaceAll(raw, ".", ""), ",", ".")
	} else {
		raw = strings.ReplaceAll(raw, ",", "")
	}
	a, ok := parseAmount(raw)
	if !ok || a == 0 {
		return nil, parseErr("malformed_file", "CSV row %d: %q is not an amount.", row, clean(cell(m.Amount), 40))
	}
	return &Line{BookingDate: d, Amount: a, Name: cell(m.Name), IBAN: cell(m.IBAN), Remittance: cell(m.Text), BankRef: cell(m.Reference)}, nil
}
