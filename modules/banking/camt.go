package banking

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"github.com/propman/propman/platform/period"
)

// ISO 20022 camt.053: versions 02 to 08 share the entry's shape; they
// differ in the namespace and in where a party's name sits (02-07
// Dbtr/Nm, 08 Dbtr/Pty/Nm). encoding/xml matches elements by local name,
// so one set of structs reads every version; the namespace picks the
// version and refuses others.
const camtNamespace = "urn:iso:std:iso:20022:tech:xsd:camt.053.001.0"

type camtAmount struct {
	Value string `xml:",chardata"`
	Ccy   string `xml:"Ccy,attr"`
}

type camtDate struct {
	Dt   string `xml:"Dt"`
	DtTm string `xml:"DtTm"`
}

func (d camtDate) date() (period.Date, bool) {
	s := d.Dt
	if s == "" && len(d.DtTm) >= 10 {
		s = d.DtTm[:10]
	}
	v, err := period.ParseDate(s)
	return v, err == nil
}

type camtParty struct {
	Nm  string `xml:"Nm"`
	Pty struct {
		Nm string `xml:"Nm"`
	} `xml:"Pty"`
}

func (p camtParty) name() string {
	if p.Nm != "" {
		return p.Nm
	}
	return p.Pty.Nm
}

type camtAccount struct {
	ID struct {
		IBAN string `xml:"IBAN"`
	} `xml:"Id"`
}

type camtTx struct {
	Refs struct {
		AcctSvcrRef string `xml:"AcctSvcrRef"`
		EndToEndID  string `xml:"EndToEndId"`
	} `xml:"Refs"`
	RltdPties struct {
		Dbtr     camtParty   `xml:"Dbtr"`
		DbtrAcct camtAccount `xml:"DbtrAcct"`
		Cdtr     camtParty   `xml:"Cdtr"`
		CdtrAcct camtAccount `xml:"CdtrAcct"`
	} `xml:"RltdPties"`
	RmtInf struct {
		Ustrd []string `xml:"Ustrd"`
		Strd  []struct {
			CdtrRefInf struct {
				Ref string `xml:"Ref"`
			} `xml:"CdtrRefInf"`
		} `xml:"Strd"`
	} `xml:"RmtInf"`
	RtrInf struct {
		Rsn struct {
			Cd string `xml:"Cd"`
		} `xml:"Rsn"`
	} `xml:"RtrInf"`
}

// camtTxCode is the bank transaction code: ISO's domain, family and
// sub-family, or a bank's proprietary code (German banks write
// "NTRF+109", their business transaction code after the plus).
type camtTxCode struct {
	Domn struct {
		Fmly struct {
			SubFmlyCd string `xml:"SubFmlyCd"`
		} `xml:"Fmly"`
	} `xml:"Domn"`
	Prtry struct {
		Cd string `xml:"Cd"`
	} `xml:"Prtry"`
}

// returnSubFamilies are the ISO sub-family codes of a reversal: RRTN
// reversal due to a payment return, UPDD an unpaid direct debit, RPCR
// reversal due to a cancellation request.
var returnSubFamilies = map[string]bool{"RRTN": true, "UPDD": true, "RPCR": true}

// isReturn says whether the code marks a returned payment.
func (c camtTxCode) isReturn() bool {
	if returnSubFamilies[strings.TrimSpace(c.Domn.Fmly.SubFmlyCd)] {
		return true
	}
	_, gvc, ok := strings.Cut(c.Prtry.Cd, "+")
	return ok && returnGVC[strings.TrimSpace(gvc)]
}

type camtEntry struct {
	NtryRef   string     `xml:"NtryRef"`
	Amt       camtAmount `xml:"Amt"`
	CdtDbtInd string     `xml:"CdtDbtInd"`
	RvslInd   string     `xml:"RvslInd"`
	// Sts is the code itself in 02 to 05 and a Cd inside it later.
	Sts struct {
		Value string `xml:",chardata"`
		Cd    string `xml:"Cd"`
	} `xml:"Sts"`
	BkTxCd      camtTxCode `xml:"BkTxCd"`
	BookgDt     camtDate   `xml:"BookgDt"`
	ValDt       camtDate   `xml:"ValDt"`
	AcctSvcrRef string     `xml:"AcctSvcrRef"`
	NtryDtls    []struct {
		TxDtls []camtTx `xml:"TxDtls"`
	} `xml:"NtryDtls"`
}

// checkXML reads the whole document once for its shape: well-formed,
// nested at most MaxXMLDepth deep, without a DTD (no entity tricks). It
// returns the namespace of the root element.
func checkXML(r io.Reader) (string, error) {
	d := xml.NewDecoder(r)
	depth, root := 0, ""
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", parseErr("malformed_file", "The XML is malformed: %s.", err.Error())
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > MaxXMLDepth {
				return "", parseErr("malformed_file", "The XML nests deeper than %d elements.", MaxXMLDepth)
			}
			if root == "" {
				for _, a := range t.Attr {
					if a.Name.Space == "" && a.Name.Local == "xmlns" {
						root = a.Value
					}
				}
				if root == "" {
					root = "-"
				}
			}
		case xml.EndElement:
			depth--
		case xml.Directive:
			return "", parseErr("malformed_file", "The XML declares a DTD, which no bank statement does.")
		}
	}
	if depth != 0 || root == "" {
		return "", parseErr("malformed_file", "The XML is malformed: it ends before its last element is closed.")
	}
	return root, nil
}

// parseCAMT reads the entries one at a time with the decoder's token
// stream (one Ntry decoded at once), so memory does not grow with the
// file. open gives the file from its start: it is read once for its
// shape, then for its entries.
func parseCAMT(open func() (io.Reader, error), emit func(*Line) error) error {
	r, err := open()
	if err != nil {
		return err
	}
	ns, err := checkXML(r)
	if err != nil {
		return err
	}
	version, ok := strings.CutPrefix(ns, camtNamespace)
	if !ok || len(version) != 1 || version[0] < '2' || version[0] > '8' {
		return parseErr("unsupported_format", "Only camt.053 versions 02 to 08 are read; this file's namespace is %q.", ns)
	}
	if r, err = open(); err != nil {
		return err
	}
	d := xml.NewDecoder(r)
	n := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return parseErr("malformed_file", "The XML is malformed: %s.", err.Error())
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Ntry" {
			continue
		}
		var e camtEntry
		if err := d.DecodeElement(&e, &se); err != nil {
			return parseErr("malformed_file", "The XML is malformed: %s.", err.Error())
		}
		if n >= MaxLines {
			return parseErr("too_many_lines", "The file has more than %d entries.", MaxLines)
		}
		l, err := camtLine(&e, n+1)
		if err != nil {
			return err
		}
		if l != nil {
			n++
			if err := emit(l); err != nil {
				return err
			}
		}
	}
	return nil
}

func camtLine(e *camtEntry, n int) (*Line, error) {
	status := e.Sts.Value
	if e.Sts.Cd != "" {
		status = e.Sts.Cd
	}
	if s := strings.TrimSpace(status); s != "" && s != "BOOK" {
		// Pending and informational entries are not booked yet.
		return nil, nil
	}
	amount, ok := parseAmount(e.Amt.Value)
	if !ok || amount <= 0 {
		return nil, parseErr("malformed_file", "Entry %d: the amount %q is not an amount.", n, e.Amt.Value)
	}
	booked, ok := e.BookgDt.date()
	if !ok {
		return nil, parseErr("malformed_file", "Entry %d: the booking date is missing or malformed.", n)
	}
	l := &Line{BookingDate: booked, Currency: strings.ToUpper(strings.TrimSpace(e.Amt.Ccy))}
	l.ValueDate, _ = e.ValDt.date()
	credit := strings.TrimSpace(e.CdtDbtInd) == "CRDT"
	if !credit && strings.TrimSpace(e.CdtDbtInd) != "DBIT" {
		return nil, parseErr("malformed_file", "Entry %d: CdtDbtInd must be CRDT or DBIT.", n)
	}
	l.Amount = amount
	if !credit {
		l.Amount = -amount
	}
	l.IsReturn = strings.TrimSpace(e.RvslInd) == "true" || e.BkTxCd.isReturn()
	l.BankRef = strings.TrimSpace(e.AcctSvcrRef)
	if l.BankRef == "" {
		l.BankRef = strings.TrimSpace(e.NtryRef)
	}
	var texts []string
	for _, dt := range e.NtryDtls {
		for _, tx := range dt.TxDtls {
			// The counterparty is the debtor of a credit and the creditor
			// of a debit; a returned debit names the tenant as debtor.
			party, acct := tx.RltdPties.Dbtr, tx.RltdPties.DbtrAcct
			if !credit && !l.IsReturn && tx.RtrInf.Rsn.Cd == "" {
				party, acct = tx.RltdPties.Cdtr, tx.RltdPties.CdtrAcct
			}
			if l.Name == "" {
				l.Name = party.name()
			}
			if l.IBAN == "" {
				l.IBAN = acct.ID.IBAN
			}
			if l.BankRef == "" {
				l.BankRef = strings.TrimSpace(tx.Refs.AcctSvcrRef)
			}
			if e2e := strings.TrimSpace(tx.Refs.EndToEndID); l.EndToEndID == "" && e2e != "" && !strings.EqualFold(e2e, "NOTPROVIDED") {
				l.EndToEndID = e2e
			}
			if c := strings.TrimSpace(tx.RtrInf.Rsn.Cd); c != "" {
				l.IsReturn, l.ReturnCode = true, c
			}
			texts = append(texts, tx.RmtInf.Ustrd...)
			for _, s := range tx.RmtInf.Strd {
				texts = append(texts, s.CdtrRefInf.Ref)
			}
		}
	}
	l.Remittance = strings.Join(texts, " ")
	return l, nil
}
