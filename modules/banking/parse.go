package banking

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
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

// Sniff names the format of data from its first bytes (SniffFrom).
func Sniff(data []byte) string {
	format, _ := SniffFrom(bytes.NewReader(data))
	return format
}

// sniffHead is how many bytes, after a byte order mark and leading white
// space, name the format.
const sniffHead = 4096

// SniffFrom names the format of the statement r starts with: XML with a
// camt.053 namespace, OFX (SGML header or XML processing instruction),
// MT940 (a :20: field, after an optional SWIFT block header). "" when
// none; a CSV is never guessed, it needs a mapping. It reads the leading
// white space and 4 KiB after it, not the file.
func SniffFrom(r io.Reader) (string, error) {
	br := bufio.NewReaderSize(r, sniffHead)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	for {
		c, err := br.ReadByte()
		if errors.Is(err, io.EOF) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			_ = br.UnreadByte()
			break
		}
	}
	head, err := io.ReadAll(io.LimitReader(br, sniffHead))
	if err != nil {
		return "", err
	}
	switch {
	case bytes.HasPrefix(head, []byte("OFXHEADER")):
		return FormatOFX, nil
	case bytes.HasPrefix(head, []byte("<")):
		if bytes.Contains(head, []byte("camt.053.001.")) {
			return FormatCAMT, nil
		}
		if bytes.Contains(head, []byte("<OFX")) || bytes.Contains(head, []byte("<?OFX")) {
			return FormatOFX, nil
		}
		return "xml", nil
	case bytes.HasPrefix(head, []byte(":20:")), bytes.HasPrefix(head, []byte("{1:")),
		bytes.HasPrefix(head, []byte(":940:")):
		return FormatMT940, nil
	}
	return "", nil
}

// ParseEach reads data in the given format (ParseFrom).
func ParseEach(format string, data []byte, mapping *CSVMapping, emit func(*Line) error) error {
	return ParseFrom(format, bytes.NewReader(data), mapping, emit)
}

// ParseFrom reads the statement in src in the given format and gives each
// booked line to emit as it is read (the parsers stream: memory holds one
// entry, not the file's lines nor its bytes). src is read from its start
// as often as the format needs: once for the encoding, then once (MT940,
// CSV) or twice (CAMT, OFX: the first time for the file's shape). Every
// text is cleaned (control characters become spaces, runs of spaces one)
// and bounded. A file that is broken further on fails after its earlier
// lines were given: a caller that must import all or nothing reads the
// file once without keeping anything first. An error reading src is
// returned as it is, not as a ParseError.
func ParseFrom(format string, src io.ReadSeeker, mapping *CSVMapping, emit func(*Line) error) error {
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	// German MT940 and CSV files are often Latin-1: a file that is not
	// UTF-8 throughout is read so rather than refused.
	valid, err := validUTF8(src)
	if err != nil {
		return err
	}
	open := func() (io.Reader, error) {
		if _, err := src.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		if !valid {
			return &latin1Reader{r: src}, nil
		}
		return src, nil
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
		return parseCAMT(open, each)
	case FormatMT940:
		r, err := open()
		if err != nil {
			return err
		}
		return parseMT940(r, each)
	case FormatOFX:
		return parseOFX(open, each)
	case FormatCSV:
		r, err := open()
		if err != nil {
			return err
		}
		return parseCSV(r, mapping, each)
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

// validUTF8 reports whether all of r is UTF-8, reading it in chunks; a
// rune cut at a chunk's end is carried into the next.
func validUTF8(r io.Reader) (bool, error) {
	buf := make([]byte, 32<<10)
	carry := 0
	for {
		m, err := r.Read(buf[carry:])
		eof := errors.Is(err, io.EOF)
		if err != nil && !eof {
			return false, err
		}
		n := carry + m
		end := n
		if !eof {
			end = runeCut(buf[:n])
		}
		if !utf8.Valid(buf[:end]) {
			return false, nil
		}
		carry = copy(buf, buf[end:n])
		if eof {
			return true, nil
		}
	}
}

// runeCut is where the last, incomplete rune of b starts, len(b) when
// b ends with a whole one (or with bytes no rune starts).
func runeCut(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// latin1Reader gives r's bytes read as Latin-1, in UTF-8: each byte is
// the code point of its value.
type latin1Reader struct {
	r   io.Reader
	in  []byte
	buf []byte
	out []byte // what of buf is still to give
	err error
}

func (l *latin1Reader) Read(p []byte) (int, error) {
	for len(l.out) == 0 {
		if l.err != nil {
			return 0, l.err
		}
		if l.in == nil {
			l.in = make([]byte, 16<<10)
		}
		n, err := l.r.Read(l.in)
		l.err = err
		l.buf = l.buf[:0]
		for _, c := range l.in[:n] {
			l.buf = utf8.AppendRune(l.buf, rune(c))
		}
		l.out = l.buf
	}
	n := copy(p, l.out)
	l.out = l.out[n:]
	return n, nil
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
