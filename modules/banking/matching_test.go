package banking_test

import (
	"net/http"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
)

const (
	berndIBAN  = "DE44500105175407324931"
	claraIBAN  = "DE75512108001245126199"
	dieterIBAN = "DE91100000000123456789"
	amtIBAN    = "DE27100777770209299700"
	annaNew    = "DE68210501700012345678"
)

// Each messy category of a real statement, in one camt.053.001.08 file:
// what posts by itself, what is suggested, what reverses, what belongs to
// nobody; then a person's match and ignore, and a stranger who changes
// nothing.
func TestMessyLines(t *testing.T) {
	f := start(t)
	anna := f.contract(t, "MV-2026-0101", "Anna Schmidt", 800, "2026-09-01")
	bernd := f.contract(t, "MV-2026-0102", "Bernd Müller", 650, "2026-09-01")
	clara := f.contract(t, "MV-2026-0103", "Clara Weiß", 900, "2026-09-01")
	dieter := f.contract(t, "MV-2026-0104", "Dieter Braun", 700, "2026-09-01")
	eva := f.contract(t, "MV-2026-0105", "Eva Klein", 750, "2026-09-01")
	f.bill(t)
	entries := []entry{
		// A typo in the reference (one digit), the tenant's name and
		// September's amount confirm it.
		{Ref: "E01", Date: "2026-09-02", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Miete September MV-2026-1101"},
		// Two months in one line.
		{Ref: "E02", Date: "2026-09-03", Cents: 130000, Name: "BERND MUELLER", IBAN: berndIBAN, Text: "Miete Sep+Okt MV-2026-0102"},
		// A partial payment.
		{Ref: "E03", Date: "2026-09-04", Cents: 45000, Name: "Clara Weiss", IBAN: claraIBAN, Text: "MV-2026-0103 Teilzahlung"},
		// An over-payment.
		{Ref: "E04", Date: "2026-09-05", Cents: 100000, Name: "Dieter Braun", IBAN: dieterIBAN, Text: "Miete MV-2026-0104"},
		// A third party pays Eva's rent.
		{Ref: "E05", Date: "2026-09-06", Cents: 75000, Name: "Sozialamt Musterstadt", IBAN: amtIBAN, Text: "KdU Eva Klein MV 2026 0105"},
		// Anna from her learnt IBAN, without a reference, signing short.
		{Ref: "E06", Date: "2026-10-02", Cents: 80000, Name: "A. Schmidt", IBAN: annaIBAN, Text: "Miete Oktober"},
		// Anna from a new account: her name and November's amount.
		{Ref: "E07", Date: "2026-11-02", Cents: 80000, Name: "Anna Schmidt", IBAN: annaNew, Text: "Miete"},
		// Bernd's November collected by direct debit, then returned.
		{Ref: "E08", Date: "2026-11-03", Cents: 65000, Name: "Bernd Mueller", IBAN: berndIBAN, Text: "SEPA-Lastschrift MV-2026-0102 November"},
		{Ref: "E09", Date: "2026-11-10", Cents: -65000, Name: "Bernd Mueller", IBAN: berndIBAN, Text: "Ruecklastschrift MV-2026-0102", Return: "AM04"},
		// A line that belongs to nobody.
		{Ref: "E10", Date: "2026-11-11", Cents: 5500, Name: "Max Mustermann", IBAN: "DE02300209000106531065", Text: "Geschenk"},
		// Clara's name only, an amount she does not owe: suggested.
		{Ref: "E11", Date: "2026-11-12", Cents: 12345, Name: "Clara Weiß", IBAN: "DE02700100800030876808", Text: "Nebenkosten"},
	}
	r := f.importFile(t, camt(8, "DE89370400440532013000", entries), nil)
	if r != (result{Format: "camt053", Lines: 11, Posted: 8, Returns: 1, Unmatched: 1, Suggested: 1}) {
		t.Errorf("import %+v", r)
	}
	byRef := map[string]line{}
	for _, l := range f.lines(t, "") {
		byRef[l.BookingDate+l.Remittance] = l
	}
	want := func(e entry, status, contract string, reasons ...string) line {
		t.Helper()
		l, ok := byRef[e.Date+e.Text]
		if !ok {
			t.Fatalf("no line for %+v", e)
		}
		if l.Status != status || (contract != "" && (l.ContractID == nil || *l.ContractID != contract)) {
			t.Errorf("%s: status %s contract %v, want %s %s (reasons %v)", e.Text, l.Status, l.ContractID, status, contract, l.Reasons)
		}
		for _, r := range reasons {
			if !hasReason(l, r) {
				t.Errorf("%s: reasons %v lack %s", e.Text, l.Reasons, r)
			}
		}
		return l
	}
	want(entries[0], "posted", anna, "reference_typo", "payer_name", "amount_open_charge")
	want(entries[1], "posted", bernd, "reference", "payer_name", "amount_oldest_charges")
	want(entries[2], "posted", clara, "reference", "payer_name")
	want(entries[3], "posted", dieter, "reference", "payer_name")
	want(entries[4], "posted", eva, "reference", "payer_name")
	want(entries[5], "posted", anna, "payer_iban", "amount_open_charge")
	want(entries[6], "posted", anna, "payer_name", "amount_open_charge")
	debited := want(entries[7], "posted", bernd, "reference")
	returned := want(entries[8], "posted", bernd, "returned_debit")
	nobody := want(entries[9], "unmatched", "", "no_signal")
	suggested := want(entries[10], "suggested", clara, "payer_name", "weak_signal")
	if returned.PaymentID == nil || debited.PaymentID == nil || *returned.PaymentID != *debited.PaymentID || returned.ReturnCode != "AM04" {
		t.Fatalf("return %+v of %+v", returned, debited)
	}
	// The money, to the cent: the payments module allocated each payment.
	for _, c := range []struct {
		contract, paid, outstanding string
	}{
		{anna, "2400.00", "0.00"},    // Sep (typo), Oct (IBAN), Nov (new IBAN)
		{bernd, "1300.00", "650.00"}, // Sep+Oct; November's debit returned
		{clara, "450.00", "2250.00"}, // a partial payment of September
		{dieter, "1000.00", "1100.00"},
		{eva, "750.00", "1500.00"},
	} {
		if b := f.balance(t, c.contract); string(b.Paid) != c.paid || string(b.Outstanding) != c.outstanding {
			t.Errorf("contract %s: balance %+v, want paid %s outstanding %s", c.contract, b, c.paid, c.outstanding)
		}
	}
	reversed := 0
	for _, p := range f.payments(t) {
		if p.Status == "reversed" {
			reversed++
			if p.ID != *debited.PaymentID {
				t.Errorf("reversed the wrong payment %+v", p)
			}
		}
	}
	if reversed != 1 {
		t.Fatalf("%d payments reversed", reversed)
	}

	// A stranger changes nothing.
	stranger := accountstest.NewUser(t, f.app)
	if s := f.app.Post("/api/v1/bank-lines/"+suggested.ID+"/match", stranger.Token, map[string]any{"contract_id": clara}).Status; s != http.StatusForbidden && s != http.StatusNotFound {
		t.Fatalf("stranger's match: %d", s)
	}
	if s := f.app.Post("/api/v1/bank-lines/"+nobody.ID+"/ignore", stranger.Token, nil).Status; s != http.StatusForbidden && s != http.StatusNotFound {
		t.Fatalf("stranger's ignore: %d", s)
	}
	if s := f.upload(f.account, stranger.Token, camt(8, "", entries), nil).Status; s != http.StatusForbidden && s != http.StatusNotFound {
		t.Fatalf("stranger's import: %d", s)
	}
	if l := f.lines(t, "&status=suggested"); len(l) != 1 || l[0].PaymentID != nil {
		t.Fatalf("after the stranger %+v", l)
	}

	// The landlord confirms the suggestion: posted, and Clara's new IBAN
	// is learnt for her contract.
	var matched line
	f.app.Post("/api/v1/bank-lines/"+suggested.ID+"/match", f.user.Token, map[string]any{"contract_id": clara}).Expect(http.StatusOK).JSON(&matched)
	if matched.Status != "posted" || matched.PaymentID == nil || !hasReason(matched, "manual_match") {
		t.Fatalf("matched %+v", matched)
	}
	if b := f.balance(t, clara); b.Paid != "573.45" {
		t.Fatalf("clara after the match %+v", b)
	}
	f.app.Post("/api/v1/bank-lines/"+suggested.ID+"/match", f.user.Token, map[string]any{"contract_id": clara}).Expect(http.StatusConflict)
	f.app.Post("/api/v1/bank-lines/"+returned.ID+"/match", f.user.Token, map[string]any{"contract_id": clara}).Expect(http.StatusConflict)
	var ignored line
	f.app.Post("/api/v1/bank-lines/"+nobody.ID+"/ignore", f.user.Token, nil).Expect(http.StatusOK).JSON(&ignored)
	if ignored.Status != "ignored" {
		t.Fatalf("ignored %+v", ignored)
	}
	f.app.Post("/api/v1/bank-lines/"+nobody.ID+"/ignore", f.user.Token, nil).Expect(http.StatusConflict)

	// The learnt IBAN posts Clara's next line by itself.
	next := []entry{{Ref: "E12", Date: "2026-11-20", Cents: 90000, Name: "C. W.", IBAN: "DE02700100800030876808", Text: "Dezember"}}
	if r := f.importFile(t, camt(2, "", next), nil); r.Posted != 1 {
		t.Fatalf("learnt IBAN %+v", r)
	}
	// The whole file again changes nothing.
	if r := f.importFile(t, camt(8, "DE89370400440532013000", entries), nil); r.Duplicates != 11 || r.Lines != 11 {
		t.Fatalf("again %+v", r)
	}
	if n := f.count(t); n != 12 {
		t.Fatalf("%d lines", n)
	}
	// Every decision is in the activity log.
	n := f.activities(t)
	if n != 14 { // 12 lines imported, one matched, one ignored
		t.Fatalf("%d bank line entries in the activity log", n)
	}
}

// A returned direct debit reverses its payment with the reason in the
// contract's language, as the tenant reads it on the voided receipt; the
// receipt of the posted payment carries the transfer's own text.
func TestReturnedDebitInTheContractsLanguage(t *testing.T) {
	f := start(t)
	de := f.contractIn(t, "DE-1", "Anna Schmidt", 800, "2026-11-01", "de")
	fr := f.contractIn(t, "FR-1", "Claire Dubois", 700, "2026-11-01", "fr")
	en := f.contractIn(t, "EN-1", "John Smith", 600, "2026-11-01", "en")
	f.bill(t)
	entries := []entry{
		{Ref: "D1", Date: "2026-11-02", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "SEPA-Lastschrift Miete DE-1"},
		{Ref: "D2", Date: "2026-11-02", Cents: 70000, Name: "Claire Dubois", IBAN: claraIBAN, Text: "Prelevement loyer FR-1"},
		{Ref: "D3", Date: "2026-11-02", Cents: 60000, Name: "John Smith", IBAN: dieterIBAN, Text: "Rent EN-1"},
		{Ref: "R1", Date: "2026-11-09", Cents: -80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Ruecklastschrift", Return: "MS03"},
		{Ref: "R2", Date: "2026-11-09", Cents: -70000, Name: "Claire Dubois", IBAN: claraIBAN, Text: "Rejet", Return: "AM04"},
		{Ref: "R3", Date: "2026-11-09", Cents: -60000, Name: "John Smith", IBAN: dieterIBAN, Text: "Return", Return: "AC04"},
	}
	if r := f.importFile(t, mt940(entries, 0), nil); r.Posted != 3 || r.Returns != 3 {
		t.Fatalf("import %+v", r)
	}
	for contract, want := range map[string]string{de: "Rücklastschrift (MS03)", fr: "Prélèvement rejeté (AM04)", en: "Returned direct debit (AC04)"} {
		var out struct {
			Payments []struct {
				Status         string  `json:"status"`
				Reference      string  `json:"reference"`
				ReversalReason *string `json:"reversal_reason"`
			} `json:"payments"`
		}
		f.app.Get("/api/v1/properties/"+f.propOf[contract]+"/payments", f.user.Token).Expect(http.StatusOK).JSON(&out)
		if len(out.Payments) != 1 || out.Payments[0].Status != "reversed" || out.Payments[0].ReversalReason == nil || *out.Payments[0].ReversalReason != want {
			t.Errorf("contract %s: %+v, want reversed with %q", contract, out.Payments, want)
		}
		if b := f.balance(t, contract); b.Paid != "0.00" {
			t.Errorf("contract %s: balance %+v after the return", contract, b)
		}
	}
	var out struct {
		Payments []struct {
			Reference string `json:"reference"`
		} `json:"payments"`
	}
	f.app.Get("/api/v1/properties/"+f.propOf[de]+"/payments", f.user.Token).Expect(http.StatusOK).JSON(&out)
	if out.Payments[0].Reference != "SEPA-Lastschrift Miete DE-1" {
		t.Fatalf("reference %q", out.Payments[0].Reference)
	}
}

// A receipt's number quoted in a transfer names the contract its payment
// was for.
func TestReceiptNumberInTheText(t *testing.T) {
	f := start(t)
	anna := f.contract(t, "MV-1", "Anna Schmidt", 800, "2026-10-01")
	f.contract(t, "MV-2", "Bernd Braun", 800, "2026-10-01")
	f.bill(t)
	if r := f.importFile(t, camt(2, "", []entry{{Ref: "A", Date: "2026-10-02", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Miete MV-1"}}), nil); r.Posted != 1 {
		t.Fatalf("first %+v", r)
	}
	var rs struct {
		Receipts []struct {
			Number string `json:"number"`
		} `json:"receipts"`
	}
	f.app.Get("/api/v1/properties/"+f.propOf[anna]+"/receipts", f.user.Token).Expect(http.StatusOK).JSON(&rs)
	if len(rs.Receipts) != 1 {
		t.Fatalf("receipts %+v", rs)
	}
	// A stranger's account, no contract number, no tenant's name: only
	// the receipt's number, written with a slash.
	text := "Nachzahlung zu Quittung " + replace(rs.Receipts[0].Number, "-", "/")
	r := f.importFile(t, camt(8, "", []entry{{Ref: "B", Date: "2026-11-05", Cents: 80000, Name: "Hausverwaltung Dritter", IBAN: amtIBAN, Text: text}}), nil)
	if r.Posted != 1 {
		t.Fatalf("second %+v", r)
	}
	l := f.lines(t, "&from=2026-11-01")
	if len(l) != 1 || l[0].ContractID == nil || *l[0].ContractID != anna || !hasReason(l[0], "receipt_number") {
		t.Fatalf("line %+v", l)
	}
	if b := f.balance(t, anna); b.Outstanding != "0.00" || b.Paid != "1600.00" {
		t.Fatalf("balance %+v", b)
	}
}
