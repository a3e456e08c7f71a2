package banking

import (
	"bytes"
	"html"
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

// ofxTags returns the tags of data after the header, each with the text
// that follows it up to the next tag.
func ofxTags(data []byte) ([]ofxTag, error) {
	start := bytes.Index(data, []byte("<OFX>"))
	if start < 0 {
		return nil, parseErr("malformed_file", "The OFX file has no <OFX> element.")
	}
	data = data[start:]
	var out []ofxTag
	depth := 0
	for len(data) > 0 {
		lt := bytes.IndexByte(data, '<')
		if lt < 0 {
			break
		}
		gt := bytes.IndexByte(data[lt:], '>')
		if gt < 0 {
			return nil, parseErr("malformed_file", "The OFX file ends inside a tag.")
		}
		name := string(data[lt+1 : lt+gt])
		data = data[lt+gt+1:]
		next := bytes.IndexByte(data, '<')
		if next < 0 {
			next = len(data)
		}
		text := strings.TrimSpace(html.UnescapeString(string(data[:next])))
		if len(name) == 0 || len(name) > 64 || strings.ContainsAny(name, " \"'") && !strings.HasPrefix(name, "?") {
			return nil, parseErr("malformed_file", "The OFX file has a malformed tag %q.", clean(name, 40))
		}
		if strings.HasPrefix(name, "?") || strings.HasPrefix(name, "!") {
			continue
		}
		t := ofxTag{name: strings.ToUpper(strings.TrimPrefix(name, "/")), text: text, close: strings.HasPrefix(name, "/")}
		// Aggregates open without text; depth is bounded like XML's.
		if !t.close && text == "" {
			depth++
			if depth > MaxXMLDepth*4 {
				return nil, parseErr("malformed_file", "The OFX file nests deeper than %d elements.", MaxXMLDepth)
			}
		}
		out = append(out, t)
		if len(out) > MaxLines*40 {
			return nil, parseErr("too_many_lines", "The file has more than %d entries.", MaxLines)
		}
	}
	return out, nil
}

func parseOFX(data []byte, emit func(*Line) error) error {
	tags, err := ofxTags(data)
	if err != nil {
		return err
	}
	var (
		n        int
		cur      map[string]string
		inTo     bool
		currency string
	)
	for _, t := range tags {
		switch {
		case t.name == "CURDEF" && !t.close:
			currency = strings.ToUpper(t.text)
		case t.name == "STMTTRN" && !t.close:
			cur = map[string]string{}
		case t.name == "STMTTRN" && t.close:
			if cur == nil {
				continue
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
