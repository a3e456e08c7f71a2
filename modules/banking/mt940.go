package banking

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// MT940 (SWIFT customer statement), with the structured :86: German banks
// write (DFÜ-Abkommen, appendix 3): a three-digit business transaction
// code (GVC), then ?00 booking text, ?20-?29 and ?60-?63 purpose, ?30
// bank code, ?31 account or IBAN, ?32-?33 name.

// returnGVC are the business transaction codes of a returned debit or
// transfer (109 Rücklastschrift, 159 SEPA return, 108 SEPA direct debit
// return of the payer's bank).
var returnGVC = map[string]bool{"108": true, "109": true, "159": true}

type mtField struct {
	tag   string
	value string
}

// mtReader reads the file's :tag: fields one at a time with a line
// scanner; a field's value runs to the next line that starts a field or
// ends the statement ("-"). Memory holds one field, not the file's.
type mtReader struct {
	sc    *bufio.Scanner
	lines int
	// next is the field begun by the last line read, not returned yet.
	next *mtField
	done bool
}

func newMTReader(r io.Reader) *mtReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), maxTextLine)
	return &mtReader{sc: sc}
}

// field returns the next field, nil at the end of the file.
func (r *mtReader) field() (*mtField, error) {
	for !r.done {
		if !r.sc.Scan() {
			r.done = true
			if err := r.sc.Err(); errors.Is(err, bufio.ErrTooLong) {
				return nil, parseErr("malformed_file", "The MT940 file has a line longer than %d characters.", maxTextLine)
			} else if err != nil {
				return nil, err
			}
			break
		}
		r.lines++
		if r.lines > MaxLines*4 {
			return nil, parseErr("too_many_lines", "The file has more than %d lines.", MaxLines*4)
		}
		line := strings.TrimRight(r.sc.Text(), "\r")
		var started *mtField
		switch {
		case strings.HasPrefix(line, "{") || strings.TrimSpace(line) == "" || strings.HasPrefix(line, "}"):
			continue
		case line == "-" || line == "-}":
			started = &mtField{tag: "-"}
		case len(line) > 3 && line[0] == ':' && strings.Index(line[1:], ":") > 0 && strings.Index(line[1:], ":") <= 4:
			end := strings.Index(line[1:], ":") + 1
			started = &mtField{tag: line[1:end], value: line[end+1:]}
		default:
			if r.next == nil {
				return nil, parseErr("malformed_file", "The MT940 file does not start with a field.")
			}
			r.next.value += "\n" + line
			continue
		}
		if prev := r.next; prev != nil {
			r.next = started
			return prev, nil
		}
		r.next = started
	}
	prev := r.next
	r.next = nil
	return prev, nil
}

// mtBalance reads a :60F:/:62F: balance: C or D, YYMMDD, currency, amount.
func mtBalance(v string) (money.Amount, string, bool) {
	v = strings.TrimSpace(v)
	if len(v) < 11 || (v[0] != 'C' && v[0] != 'D') {
		return 0, "", false
	}
	a, ok := parseAmount(v[10:])
	if !ok {
		return 0, "", false
	}
	if v[0] == 'D' {
		a = -a
	}
	return a, v[7:10], true
}

func mtDate(s string) (period.Date, bool) {
	if len(s) != 6 {
		return period.Date{}, false
	}
	// Two-digit years: SWIFT statements of this century.
	d, err := period.ParseDate("20" + s[0:2] + "-" + s[2:4] + "-" + s[4:6])
	return d, err == nil
}

// parseMT940 reads the statements field by field; a :61: line is given
// to emit once the field after it (its :86:, if any) is read.
func parseMT940(in io.Reader, emit func(*Line) error) error {
	r := newMTReader(in)
	var (
		opening, sum money.Amount
		currency     string
		n, fields    int
		pending      *Line
	)
	flush := func() error {
		if pending == nil {
			return nil
		}
		l := pending
		pending = nil
		sum += l.Amount
		return emit(l)
	}
	for {
		f, err := r.field()
		if err != nil {
			return err
		}
		if f == nil {
			break
		}
		fields++
		if f.tag == "86" && pending != nil {
			mtPurpose(pending, f.value)
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		switch f.tag {
		case "20":
			sum = 0
		case "60F", "60M":
			a, ccy, ok := mtBalance(f.value)
			if !ok {
				return parseErr("malformed_file", "The opening balance %q is malformed.", f.value)
			}
			opening, currency = a, ccy
		case "61":
			if n >= MaxLines {
				return parseErr("too_many_lines", "The file has more than %d entries.", MaxLines)
			}
			l, err := mtLine(f.value, n+1)
			if err != nil {
				return err
			}
			n++
			l.Currency = currency
			pending = l
		case "62F", "62M":
			closing, _, ok := mtBalance(f.value)
			if !ok {
				return parseErr("malformed_file", "The closing balance %q is malformed.", f.value)
			}
			if opening+sum != closing {
				return parseErr("unbalanced_statement",
					"The statement does not add up: opening balance %s plus its entries %s is %s, but the closing balance is %s.",
					opening, sum, opening+sum, closing)
			}
			opening, sum = closing, 0
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if fields == 0 {
		return parseErr("malformed_file", "The MT940 file holds no statement.")
	}
	return nil
}

// mtLine reads a :61: statement line.
func mtLine(v string, n int) (*Line, error) {
	first, supplement, _ := strings.Cut(v, "\n")
	bad := func(what string) error {
		return parseErr("malformed_file", "Statement line %d: %s in %q.", n, what, first)
	}
	if len(first) < 6 {
		return nil, bad("no value date")
	}
	valueDate, ok := mtDate(first[:6])
	if !ok {
		return nil, bad("a malformed value date")
	}
	rest := first[6:]
	booking := valueDate
	if len(rest) >= 4 && isDigits(rest[:4]) {
		// The booking (entry) date has no year: the value date's, or the
		// next or previous one around new year.
		if d, ok := mtDate(first[:2] + rest[:4]); ok {
			booking = d
			if diff := d.Time().Sub(valueDate.Time()).Hours() / 24; diff > 180 {
				booking, _ = mtDate(twoDigits(atoi2(first[:2])-1) + rest[:4])
			} else if diff < -180 {
				booking, _ = mtDate(twoDigits(atoi2(first[:2])+1) + rest[:4])
			}
		}
		rest = rest[4:]
	}
	l := &Line{BookingDate: booking, ValueDate: valueDate}
	sign := money.Amount(1)
	switch {
	case strings.HasPrefix(rest, "RC"):
		sign, l.IsReturn, rest = -1, true, rest[2:]
	case strings.HasPrefix(rest, "RD"):
		sign, l.IsReturn, rest = 1, true, rest[2:]
	case strings.HasPrefix(rest, "C"):
		rest = rest[1:]
	case strings.HasPrefix(rest, "D"):
		sign, rest = -1, rest[1:]
	default:
		return nil, bad("no debit/credit mark")
	}
	if len(rest) > 0 && rest[0] >= 'A' && rest[0] <= 'Z' {
		rest = rest[1:] // the funds code
	}
	end := strings.IndexAny(rest, "NFS")
	if end <= 0 {
		return nil, bad("no amount")
	}
	a, ok := parseAmount(rest[:end])
	if !ok || a <= 0 {
		return nil, bad("a malformed amount")
	}
	l.Amount = sign * a
	rest = rest[end:]
	if len(rest) < 4 {
		return nil, bad("no transaction type")
	}
	if rest[1:4] == "RTI" {
		l.IsReturn = true
	}
	rest = rest[4:]
	_, bankRef, _ := strings.Cut(rest, "//")
	l.BankRef = strings.TrimSpace(bankRef)
	_ = supplement
	return l, nil
}

// mtPurpose reads a :86: field into the line: structured (GVC and ?nn
// subfields) or free text.
func mtPurpose(l *Line, v string) {
	v = strings.ReplaceAll(v, "\n", "")
	if len(v) < 4 || !isDigits(v[:3]) || v[3] != '?' {
		l.Remittance = v
		return
	}
	gvc := v[:3]
	if returnGVC[gvc] {
		l.IsReturn = true
		if l.ReturnCode == "" {
			l.ReturnCode = "GVC" + gvc
		}
	}
	var purpose, name []string
	for _, part := range strings.Split(v[4:], "?")[0:] {
		if len(part) < 2 || !isDigits(part[:2]) {
			continue
		}
		code, text := part[:2], part[2:]
		switch {
		case code >= "20" && code <= "29", code >= "60" && code <= "63":
			purpose = append(purpose, text)
		case code == "32" || code == "33":
			name = append(name, text)
		case code == "31":
			l.IBAN = strings.TrimSpace(text)
		}
	}
	l.Remittance = joinSubfields(purpose)
	l.Name = joinSubfields(name)
	l.EndToEndID = sepaField(strings.Join(purpose, ""), "EREF+")
	if l.IsReturn {
		// SEPA returns carry the reason as "RTRN ... AM04" or in SVWZ.
		for _, code := range []string{"AC04", "AC06", "AM04", "MD06", "MS02", "MS03", "MD01", "SL01"} {
			if strings.Contains(l.Remittance, code) {
				l.ReturnCode = code
				break
			}
		}
	}
}

// sepaField is the value of a SEPA purpose keyword (EREF+, MREF+, SVWZ+)
// in the :86: purpose: up to the next keyword (four capitals and a plus)
// or the end; "" when absent or NOTPROVIDED. The subfields are joined
// without spaces first: a bank cuts the reference at 27 characters.
func sepaField(purpose, key string) string {
	_, rest, ok := strings.Cut(purpose, key)
	if !ok {
		return ""
	}
	for i := 0; i+5 <= len(rest); i++ {
		if rest[i+4] == '+' && isUpper(rest[i:i+4]) {
			rest = rest[:i]
			break
		}
	}
	v := strings.TrimSpace(rest)
	if strings.EqualFold(v, "NOTPROVIDED") {
		return ""
	}
	return v
}

func isUpper(s string) bool {
	for _, c := range s {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// joinSubfields joins ?20-?29 texts: a subfield filled to its 27
// characters continues the word in the next one; a shorter one ended at a
// word.
func joinSubfields(parts []string) string {
	var b strings.Builder
	for i, p := range parts {
		b.WriteString(p)
		if i+1 < len(parts) && len([]rune(p)) < 27 {
			b.WriteByte(' ')
		}
	}
	return strings.TrimSpace(b.String())
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func atoi2(s string) int { return int(s[0]-'0')*10 + int(s[1]-'0') }

func twoDigits(n int) string {
	n = (n + 100) % 100
	return string([]byte{byte('0' + n/10), byte('0' + n%10)})
}
