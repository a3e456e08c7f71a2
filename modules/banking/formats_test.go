package banking_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

const (
	annaIBAN  = "DE02120300000000202051"
	otherIBAN = "DE12500105170648489890"
)

// Every format, written to its standard's structure, gives the same three
// lines: Anna's rent posted to her contract, a debit, a stranger's credit
// unmatched; the same file again creates nothing.
func TestEachFormatImportsAndMatches(t *testing.T) {
	entries := []entry{
		{Ref: "2026110300001", Date: "2026-11-03", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Miete November MV-1001"},
		{Ref: "2026110400002", Date: "2026-11-04", Cents: -4550, Name: "Stadtwerke Musterstadt", IBAN: otherIBAN, Text: "Abschlag Strom"},
		{Ref: "2026110500003", Date: "2026-11-05", Cents: 12000, Name: "Unbekannt GmbH", IBAN: otherIBAN, Text: "Rechnung 4711"},
	}
	mapping, _ := json.Marshal(sparkasseMapping)
	for _, tc := range []struct {
		name, format string
		data         []byte
		fields       map[string]string
	}{
		{"camt.053.001.02", "camt053", camt(2, "DE89370400440532013000", entries), nil},
		{"camt.053.001.08", "camt053", camt(8, "DE89370400440532013000", entries), nil},
		{"MT940", "mt940", mt940(entries, 0), nil},
		{"OFX 1 SGML", "ofx", ofx(false, entries), nil},
		{"OFX 2 XML", "ofx", ofx(true, entries), nil},
		{"CSV", "csv", sparkasseCSV(entries), map[string]string{"mapping": string(mapping)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := start(t)
			contract := f.contract(t, "MV-1001", "Anna Schmidt", 800, "2026-11-01")
			f.bill(t)
			r := f.importFile(t, tc.data, tc.fields)
			if r != (result{Format: tc.format, Lines: 3, Posted: 1, Debits: 1, Unmatched: 1}) {
				t.Fatalf("import %+v", r)
			}
			pays := f.payments(t)
			if len(pays) != 1 || pays[0].Amount != "800.00" || pays[0].Method != "bank_transfer" || pays[0].PaidOn != "2026-11-03" ||
				pays[0].ContractID == nil || *pays[0].ContractID != contract {
				t.Fatalf("payments %+v", pays)
			}
			if b := f.balance(t, contract); b.Outstanding != "0.00" || b.Paid != "800.00" {
				t.Fatalf("balance %+v", b)
			}
			posted := f.lines(t, "&status=posted")
			if len(posted) != 1 || posted[0].PaymentID == nil || *posted[0].PaymentID != pays[0].ID || posted[0].CounterpartyName != "Anna Schmidt" ||
				posted[0].Remittance != "Miete November MV-1001" || !hasReason(posted[0], "reference") || !hasReason(posted[0], "amount_open_charge") {
				t.Fatalf("posted %+v", posted)
			}
			if tc.format != "ofx" && posted[0].CounterpartyIBAN != annaIBAN {
				t.Fatalf("iban %q", posted[0].CounterpartyIBAN)
			}
			if d := f.lines(t, "&status=debit"); len(d) != 1 || d[0].Amount != -45.5 {
				t.Fatalf("debits %+v", d)
			}
			if u := f.lines(t, "&status=unmatched"); len(u) != 1 || u[0].Amount != 120 || !hasReason(u[0], "no_signal") {
				t.Fatalf("unmatched %+v", u)
			}
			// The same file again: every line a duplicate, nothing posted.
			if again := f.importFile(t, tc.data, tc.fields); again != (result{Format: tc.format, Lines: 3, Duplicates: 3}) {
				t.Fatalf("again %+v", again)
			}
			if n := f.count(t); n != 3 || len(f.payments(t)) != 1 {
				t.Fatalf("%d lines, %d payments after the second import", n, len(f.payments(t)))
			}
		})
	}
}

func hasReason(l line, r string) bool {
	for _, x := range l.Reasons {
		if x == r {
			return true
		}
	}
	return false
}

// A file that is no statement, or a broken one, is a 4xx and imports
// nothing.
func TestBadFilesImportNothing(t *testing.T) {
	f := start(t, testkitMaxBytes("4096"))
	f.contract(t, "MV-1001", "Anna Schmidt", 800, "2026-11-01")
	f.bill(t)
	good := []entry{{Ref: "R1", Date: "2026-11-03", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Miete MV-1001"}}
	big := make([]entry, 0, 40)
	for i := 0; i < 40; i++ {
		big = append(big, good[0])
	}
	bad := []struct {
		name   string
		data   []byte
		fields map[string]string
		status int
		code   string
	}{
		{"oversized", camt(2, "", big), nil, http.StatusRequestEntityTooLarge, "file_too_large"},
		{"malformed XML", []byte(string(camt(2, "", good))[:300]), nil, http.StatusBadRequest, "malformed_file"},
		{"camt version 09", []byte(replace(string(camt(2, "", good)), "camt.053.001.02", "camt.053.001.09")), nil, http.StatusBadRequest, "unsupported_format"},
		{"camt.052 report", []byte(replace(string(camt(2, "", good)), "camt.053.001.02", "camt.052.001.02")), nil, http.StatusBadRequest, "unsupported_format"},
		{"broken MT940 balance", mt940(good, 100), nil, http.StatusBadRequest, "unbalanced_statement"},
		{"CSV mapping naming missing columns", sparkasseCSV(good), map[string]string{"mapping": `{"date":"Buchungstag","amount":"Umsatz","text":"Zweck"}`}, http.StatusBadRequest, "missing_columns"},
		{"CSV without a mapping", sparkasseCSV(good), nil, http.StatusBadRequest, "unsupported_format"},
		{"a PDF", []byte("%PDF-1.7\n1 0 obj\n"), nil, http.StatusBadRequest, "unsupported_format"},
		{"deep XML", []byte(`<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">` + repeat("<a>", 40) + repeat("</a>", 40) + "</Document>"), nil, http.StatusBadRequest, "malformed_file"},
	}
	for _, b := range bad {
		var e struct {
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		f.upload(f.account, f.user.Token, b.data, b.fields).Expect(b.status).JSON(&e)
		if e.Error != b.code || e.Message == "" {
			t.Errorf("%s: %+v", b.name, e)
		}
	}
	if n := f.count(t); n != 0 || len(f.payments(t)) != 0 {
		t.Fatalf("%d lines, %d payments after bad files", n, len(f.payments(t)))
	}
	// Another workspace's account: refused, nothing imported.
	other := f.other(t)
	if r := f.upload(other, f.user.Token, camt(2, "", good), nil); r.Status != http.StatusForbidden && r.Status != http.StatusNotFound {
		t.Fatalf("another workspace's account: %d %s", r.Status, r.Body)
	}
	if n := f.count(t); n != 0 {
		t.Fatalf("%d lines after a stranger's account", n)
	}
	// The good file still imports.
	if r := f.importFile(t, camt(2, "", good), nil); r.Posted != 1 {
		t.Fatalf("good file %+v", r)
	}
}
