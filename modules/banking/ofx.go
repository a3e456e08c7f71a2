package banking

import (
	"bufio"
	"errors"
	"html"
	"io"
	"strings"

	"github.com/propman/propman/platform/period"
)

// OFX 1.x is SGML whose leaf elements have no end tag; 2.x is XML. Both
// are read by one scanner over the tags: a transaction (STMTTRN) is the
// leaf values between its start and its end.

type ofxTag struct {
	name  string
	text  string
	close bool
}

// ofxNameKept is how much of a tag's name is kept: a longer one is
// refused (64 bytes at most), and its start is enough to say which.
const ofxNameKept = maxTextLine

// ofxTags gives fn the tags of the file in r after its header, each with
// the text that follows it up to the next tag, reading r as a stream: a
// tag and its text at a time.
func ofxTags(r io.Reader, fn func(ofxTag) error) error {
	br := bufio.NewReaderSize(r, 32<<10)
	found, err := skipToOFX(br)
	if err != nil {
		return err
	}
	if !found {
		return parseErr("malformed_file", "The OFX file has no <OFX> element.")
	}
	name, size := []byte("OFX"), 3
	depth, count := 0, 0
	for first := true; ; first = false {
		if !first {
			var ok bool
			if name, size, ok, err = ofxName(br, name[:0]); err != nil {
				return err
			}
			if !ok {
				return parseErr("malformed_file", "The OFX file ends inside a tag.")
			}
		}
		raw, more, err := ofxText(br)
		if err != nil {
			return err
		}
		n := string(name)
		text := strings.TrimSpace(html.UnescapeString(raw))
		if size == 0 || size > 64 || strings.ContainsAny(n, " \"'") && !strings.HasPrefix(n, "?") {
			return parseErr("malformed_file", "The OFX file has a malformed tag %q.", clean(n, 40))
		}
		if !strings.HasPrefix(n, "?") && !strings.HasPrefix(n, "!") {
			t := ofxTag{name: strings.ToUpper(strings.TrimPrefix(n, "/")), text: text, close: strings.HasPrefix(n, "/")}
			// Aggregates open without text; depth is bounded like XML's.
			if !t.close && text == "" {
				depth++
				if depth > MaxXMLDepth*4 {
					return parseErr("malformed_file", "The OFX file nests deeper than %d elements.", MaxXMLDepth)
				}
			}
			count++
			if count > MaxLines*40 {
				return parseErr("too_many_lines", "The file has more than %d entries.", MaxLines)
			}
			if err := fn(t); err != nil {
				return err
			}
		}
		if !more {
			return nil
		}
	}
}

// skipToOFX reads br up to and with the first "<OFX>".
func skipToOFX(br *bufio.Reader) (bool, error) {
	const want = "<OFX>"
	matched := 0
	for {
		c, err := br.ReadByte()
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		switch {
		case c == want[matched]:
			matched++
			if matched == len(want) {
				return true, nil
			}
		case c == '<':
			matched = 1
		default:
			matched = 0
		}
	}
}

// ofxName reads a tag's name, up to its '>', into buf (at most
// ofxNameKept bytes of it); size is its whole length, ok false when the
// file ends first.
func ofxName(br *bufio.Reader, buf []byte) (name []byte, size int, ok bool, err error) {
	for {
		chunk, err := br.ReadSlice('>')
		part := chunk
		if err == nil {
			part = chunk[:len(chunk)-1]
		}
		size += len(part)
		if keep := ofxNameKept - len(buf); keep > 0 {
			buf = append(buf, part[:min(keep, len(part))]...)
		}
		switch {
		case err == nil:
			return buf, size, true, nil
		case errors.Is(err, io.EOF):
			return buf, size, false, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return buf, size, false, err
		}
	}
}

// ofxText reads the text after a tag up to the next '<' (read too) or the
// end of the file; more says whether a tag follows.
func ofxText(br *bufio.Reader) (text string, more bool, err error) {
	b, err := br.ReadBytes('<')
	switch {
	case err == nil:
		return string(b[:len(b)-1]), true, nil
	case errors.Is(err, io.EOF):
		return string(b), false, nil
	}
	return "", false, err
}

// parseOFX reads the file twice from open: once for its tags' shape, so
// that a file broken anywhere gives no line, then for its transactions.
func parseOFX(open func() (io.Reader, error), emit func(*Line) error) error {
	r, err := open()
	if err != nil {
		return err
	}
	if err := ofxTags(r, func(ofxTag) error { return nil }); err != nil {
		return err
	}
	if r, err = open(); err != nil {
		return err
	}
	var (
		n        int
		cur      map[string]string
		inTo     bool
		currency string
	)
	err = ofxTags(r, func(t ofxTag) error {
		switch {
		case t.name == "CURDEF" && !t.close:
			currency = strings.ToUpper(t.text)
		case t.name == "STMTTRN" && !t.close:
			cur = map[string]string{}
		case t.name == "STMTTRN" && t.close:
			if cur == nil {
				return nil
			}
			if n >= MaxLines {
				return parseErr("too_many_lines", "The file has more than %d entries.", MaxLines)
			}
			l, err := ofxLine(cur, n+1)
			if err != nil {
				return err
			}
			l.Currency = currency
			n++
			if err := emit(l); err != nil {
				return err
			}
			cur = nil
		case cur != nil && (t.name == "BANKACCTTO" || t.name == "CCACCTTO"):
			inTo = !t.close
		case cur != nil && !t.close && t.text != "":
			key := t.name
			if inTo {
				key = "TO." + key
			}
			cur[key] = t.text
		}
		return nil
	})
	if err != nil {
		return err
	}
	if cur != nil {
		return parseErr("malformed_file", "The OFX file ends inside a transaction.")
	}
	return nil
}

func ofxLine(f map[string]string, n int) (*Line, error) {
	amount, ok := parseAmount(f["TRNAMT"])
	if !ok || amount == 0 {
		return nil, parseErr("malformed_file", "Transaction %d: the amount %q is not an amount.", n, f["TRNAMT"])
	}
	posted := f["DTPOSTED"]
	if len(posted) < 8 {
		return nil, parseErr("malformed_file", "Transaction %d: DTPOSTED is missing or malformed.", n)
	}
	d, err := period.ParseDate(posted[0:4] + "-" + posted[4:6] + "-" + posted[6:8])
	if err != nil {
		return nil, parseErr("malformed_file", "Transaction %d: DTPOSTED %q is not a date.", n, posted)
	}
	l := &Line{BookingDate: d, Amount: amount, BankRef: f["FITID"], Name: f["NAME"], Remittance: f["MEMO"], IBAN: f["TO.ACCTID"]}
	if f["PAYEE.NAME"] != "" && l.Name == "" {
		l.Name = f["PAYEE.NAME"]
	}
	if u, ok := f["DTUSER"]; ok && len(u) >= 8 {
		l.ValueDate, _ = period.ParseDate(u[0:4] + "-" + u[4:6] + "-" + u[6:8])
	}
	return l, nil
}
