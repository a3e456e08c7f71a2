package banking

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The formats a statement can have.
const (
	FormatCAMT  = "camt053"
	FormatMT940 = "mt940"
	FormatOFX   = "ofx"
	FormatCSV   = "csv"
)

// Limits of one statement file; MaxBytes is configurable (see Config).
const (
	MaxLines    = 20000
	MaxXMLDepth = 32
	// A line of an MT940 or CSV file longer than this is not a bank's.
	maxTextLine = 4096
)

// Bounds of a line's texts, as the table keeps them.
const (
	maxNameLen       = 140
	maxRemittanceLen = 1000
	maxRefLen        = 100
)

// Line is one booked entry of a statement as a parser read it.
type Line struct {
	BookingDate period.Date
	ValueDate   period.Date
	// Amount is signed: a credit above zero, a debit below.
	Amount     money.Amount
	Currency   string
	Name       string
	IBAN       string
	Remittance string
	// BankRef is the bank's own reference of the entry, "" when it gives
	// none (then a hash of the line stands for it).
	BankRef string
	// EndToEndID is the payer's end-to-end reference (CAMT EndToEndId,
	// MT940 ?20 EREF+), "" when none or NOTPROVIDED: a returned direct
	// debit quotes the one of the debit it returns.
	EndToEndID string
	IsReturn   bool
	ReturnCode string
}

// ParseError is a file that is not a readable statement; it becomes a 4xx
// with its message.
type ParseError struct {
	Code string
	Msg  string
}

func (e *ParseError) Error() string { return e.Msg }

func parseErr(code, format string, args ...any) error {
	return &ParseError{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// Sniff names the format of data from its first bytes: XML with a camt.053
// namespace, OFX (SGML header or XML processing instruction), MT940 (a
// :20: field, after an optional SWIFT block header). "" when none; a CSV
// is never guessed, it needs a mapping.
func Sniff(data []byte) string {
	head := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(head) > 4096 {
		head = head[:4096]
	}
	switch {
	case bytes.HasPrefix(head, []byte("OFXHEADER")):
		return FormatOFX
	case bytes.HasPrefix(head, []byte("<")):
		if bytes.Contains(head, []byte("camt.053.001.")) {
			return FormatCAMT
		}
		if bytes.Contains(head, []byte("<OFX")) || bytes.Contains(head, []byte("<?OFX")) {
			return FormatOFX
		}
		return "xml"
	case bytes.HasPrefix(head, []byte(":20:")), bytes.HasPrefix(head, []byte("{1:")),
		bytes.HasPrefix(head, []byte(":940:")):
		return FormatMT940
	}
	return ""
}

// ParseEach reads data in the given format and gives each booked line to
// emit as it is read (the parsers stream: memory holds one entry, not the
// file's lines). Every text is cleaned (control characters become
// spaces, runs of spaces one) and bounded. A file that is broken further
// on fails after its earlier lines were given: a caller that must import
// all or nothing reads the file once without keeping anything first.
func ParseEach(format string, data []byte, mapping *CSVMapping, emit func(*Line) error) error {
	if !utf8.Valid(data) {
		// German MT940 and CSV files are often Latin-1: read them so
		// rather than refuse them.
		data = latin1ToUTF8(data)
	}
	each := func(l *Line) error {
		l.Name = clean(l.Name, maxNameLen)
		l.Remittance = clean(l.Remittance, maxRemittanceLen)
		l.BankRef = clean(l.BankRef, maxRefLen)
		l.EndToEndID = clean(l.EndToEndID, maxRefLen)
		l.IBAN = normalizeIBAN(l.IBAN)
		if l.Currency == "" {
			l.Currency = "EUR"
		}
		return emit(l)
	}
	switch format {
	case FormatCAMT:
		return parseCAMT(data, each)
	case FormatMT940:
		return parseMT940(data, each)
	case FormatOFX:
		return parseOFX(data, each)
	case FormatCSV:
		return parseCSV(data, mapping, each)
	}
	return parseErr("unsupported_format", "The file is none of CAMT.053, MT940, OFX or CSV with a column mapping.")
}

// Parse reads every line of data in the given format (ParseEach, kept).
func Parse(format string, data []byte, mapping *CSVMapping) ([]Line, error) {
	var out []Line
	err := ParseEach(format, data, mapping, func(l *Line) error {
		out = append(out, *l)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func latin1ToUTF8(b []byte) []byte {
	var out strings.Builder
	out.Grow(len(b) + len(b)/8)
	for _, c := range b {
		out.WriteRune(rune(c))
	}
	return []byte(out.String())
}

// clean makes s one line of printable text of at most n runes.
func clean(s string, n int) string {
	var b strings.Builder
	space := false
	count := 0
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == ' ' || r == utf8.RuneError {
			space = b.Len() > 0
			continue
		}
		if count >= n {
			break
		}
		if space {
			if count+1 >= n {
				break
			}
			b.WriteByte(' ')
			count++
			space = false
		}
		b.WriteRune(r)
		count++
	}
	return b.String()
}

func normalizeIBAN(s string) string {
	s = strings.ToUpper(strings.ReplaceAll(s, " ", ""))
	if len(s) > 34 {
		return ""
	}
	return s
}

// parseAmount reads a decimal amount with a point or a comma and at most
// two decimals into cents.
func parseAmount(s string) (money.Amount, bool) {
	s = strings.TrimSpace(s)
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	s = strings.ReplaceAll(s, ",", ".")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" || len(whole) > 13 || len(frac) > 2 {
		return 0, false
	}
	var v int64
	for _, c := range whole {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	for i := 0; i < 2; i++ {
		v *= 10
		if i < len(frac) {
			c := frac[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			v += int64(c - '0')
		}
	}
	if neg {
		v = -v
	}
	return money.Amount(v), true
}
