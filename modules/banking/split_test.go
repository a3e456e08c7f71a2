package banking_test

import (
	"fmt"
	"net/http"
	"testing"
)

// lineByRef is the workspace's line with the bank reference.
func (f *fixture) lineByRef(t *testing.T, ref string) line {
	t.Helper()
	for _, l := range f.lines(t, "") {
		if l.BankRef == ref {
			return l
		}
	}
	t.Fatalf("no line %s", ref)
	return line{}
}

func (f *fixture) tenant(t *testing.T, name string) string {
	t.Helper()
	return id(t, f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": name}).Expect(http.StatusCreated))
}

// One transfer for a flat and a garage of one tenant is split over both
// contracts, their open charges oldest due first (same day: in the order
// the text names them), a payment a contract linked to the line; the
// same numbers with another tenant's contract are only suggested. The
// split line returned reverses both payments.
func TestOneLineForSeveralContractsOfOnePayer(t *testing.T) {
	t.Parallel()
	f := start(t)
	gisela := f.tenant(t, "Gisela Hofmann")
	flat := f.contractOf(t, "MV-2026-0201", gisela, 600, "2026-10-01", "")
	garage := f.contractOf(t, "MV-2026-0202", gisela, 400, "2026-11-01", "")
	other := f.contract(t, "MV-2026-0203", "Hans Lange", 500, "2026-11-01")
	f.bill(t)
	const iban = "DE62370400440532013001"
	entries := []entry{
		// October's flat, November's flat and garage are owed: 1,600.00.
		{Ref: "S01", E2E: "E2E-SPLIT-1", Date: "2026-11-05", Cents: 130000, Name: "Gisela Hofmann", IBAN: iban, Text: "Miete MV-2026-0201 und Garage MV-2026-0202"},
		// Two tenants' numbers: nobody can say who pays what.
		{Ref: "S02", Date: "2026-11-06", Cents: 50000, Name: "Hausgemeinschaft", IBAN: "DE02100100109999999999", Text: "MV-2026-0201 MV-2026-0203"},
	}
	r := f.importFile(t, camt(8, "DE89370400440532013000", entries), nil)
	if r != (result{Format: "camt053", Lines: 2, Posted: 1, Suggested: 1}) {
		t.Fatalf("import %+v", r)
	}
	split := f.lineByRef(t, "S01")
	if split.Status != "posted" || !hasReason(split, "split_by_payer") || len(split.Splits) != 2 {
		t.Fatalf("split line %+v", split)
	}
	// Oldest due first: October's 600 and November's 600 of the flat,
	// then 100 of November's garage.
	if s := split.Splits; s[0].ContractID != flat || s[0].Amount != 1200 || s[1].ContractID != garage || s[1].Amount != 100 {
		t.Errorf("splits %+v", s)
	}
	if split.ContractID == nil || *split.ContractID != flat || split.PaymentID == nil || *split.PaymentID != split.Splits[0].PaymentID {
		t.Errorf("line names contract %v payment %v", split.ContractID, split.PaymentID)
	}
	if b := f.balance(t, flat); b.Outstanding != "0.00" || b.Paid != "1200.00" {
		t.Errorf("flat %+v", b)
	}
	if b := f.balance(t, garage); b.Outstanding != "300.00" || b.Paid != "100.00" {
		t.Errorf("garage %+v", b)
	}
	byID := map[string]payment{}
	for _, p := range f.payments(t) {
		byID[p.ID] = p
	}
	for _, s := range split.Splits {
		p := byID[s.PaymentID]
		if p.Method != "bank_transfer" || p.ContractID == nil || *p.ContractID != s.ContractID || p.Reference != entries[0].Text {
			t.Errorf("payment of %s: %+v", s.ContractID, p)
		}
		// The ledger records each payment in the import's transaction.
		if j := f.journal(t, s.PaymentID); len(j) != 1 || j[0] != "payment "+fmt.Sprint(int64(s.Amount*100)) {
			t.Errorf("journal of the payment of %s: %v", s.ContractID, j)
		}
	}
	if l := f.lineByRef(t, "S02"); l.Status != "suggested" || !hasReason(l, "several_candidates") || len(l.Splits) != 0 {
		t.Errorf("two tenants' numbers: %+v", l)
	}
	_ = other

	// The bank takes the 1,300.00 back, quoting the transfer's reference:
	// both payments are reversed, the charges owe again.
	ret := []entry{{Ref: "S03", E2E: "E2E-SPLIT-1", Date: "2026-11-12", Cents: -130000, Name: "Gisela Hofmann", IBAN: iban, Text: "Rueckbuchung", Return: "AC04"}}
	if r := f.importFile(t, camt(8, "DE89370400440532013000", ret), nil); r.Returns != 1 {
		t.Fatalf("return %+v", r)
	}
	for _, s := range split.Splits {
		if p := f.payment(t, s.PaymentID); p.Status != "reversed" {
			t.Errorf("payment %s is %s", s.PaymentID, p.Status)
		}
		if j := f.journal(t, s.PaymentID); len(j) != 2 || j[1] != "reversal "+fmt.Sprint(int64(s.Amount*100)) {
			t.Errorf("journal of the returned payment of %s: %v", s.ContractID, j)
		}
	}
	if b := f.balance(t, flat); b.Outstanding != "1200.00" {
		t.Errorf("flat after the return %+v", b)
	}
	if b := f.balance(t, garage); b.Outstanding != "400.00" {
		t.Errorf("garage after the return %+v", b)
	}
	if l := f.lineByRef(t, "S01"); l.ReturnedBy == nil {
		t.Errorf("the split line does not name its return")
	}
}

// A returned direct debit that quotes an end-to-end reference reverses
// the payment of the line with that reference, not the latest line of
// the amount and IBAN; in CAMT (the bank transaction code UPDD alone
// marks the return) and in MT940 (GVC 109, EREF+ in the purpose).
func TestReturnedDebitByEndToEndReference(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"camt053", "mt940"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			f := start(t)
			anna := f.contract(t, "MV-2026-0301", "Anna Schmidt", 800, "2026-10-01")
			f.bill(t)
			write := func(es []entry) []byte {
				if format == "mt940" {
					return mt940(es, 0)
				}
				return camt(8, "DE89370400440532013000", es)
			}
			entries := []entry{
				{Ref: "R01", E2E: "LS-2026-10-0301", Date: "2026-11-02", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Lastschrift Oktober MV-2026-0301"},
				{Ref: "R02", E2E: "LS-2026-11-0301", Date: "2026-11-03", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Lastschrift November MV-2026-0301"},
			}
			if r := f.importFile(t, write(entries), nil); r.Posted != 2 {
				t.Fatalf("import %+v", r)
			}
			october, november := f.lineByRef(t, "R01"), f.lineByRef(t, "R02")
			if october.EndToEndID != "LS-2026-10-0301" {
				t.Errorf("end-to-end reference %q", october.EndToEndID)
			}
			ret := entry{Ref: "R03", E2E: "LS-2026-10-0301", Date: "2026-11-09", Cents: -80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Ruecklastschrift"}
			if format == "camt053" {
				ret.SubFamily = "UPDD"
			} else {
				ret.Return = "MD06"
			}
			if r := f.importFile(t, write([]entry{ret}), nil); r != (result{Format: format, Lines: 1, Returns: 1}) {
				t.Fatalf("return %+v", r)
			}
			if p := f.payment(t, *october.PaymentID); p.Status != "reversed" {
				t.Errorf("October's payment is %s", p.Status)
			}
			if p := f.payment(t, *november.PaymentID); p.Status != "posted" {
				t.Errorf("November's payment is %s", p.Status)
			}
			back := f.lineByRef(t, "R03")
			if !back.IsReturn || back.Status != "posted" || back.PaymentID == nil || *back.PaymentID != *october.PaymentID || *back.ContractID != anna {
				t.Errorf("return line %+v", back)
			}
			if l := f.lineByRef(t, "R01"); l.ReturnedBy == nil || *l.ReturnedBy != back.ID {
				t.Errorf("October's line returned by %v", l.ReturnedBy)
			}
			// Every decision in the activity log: three lines imported, the
			// October line's return noted on it.
			var changed []string
			err := f.app.DB.NewSelect().Table("activity").Column("action").Where("record_type = ?", "bank_line").
				Where("record_id = ?", october.ID).OrderExpr("id").Scan(t.Context(), &changed)
			if err != nil || f.activities(t) != 4 || len(changed) != 2 || changed[1] != "updated" {
				t.Errorf("activity: %d bank line entries, October's %v (%v)", f.activities(t), changed, err)
			}
		})
	}
}

// journal is the ledger's entries of the payment, oldest first, as "kind
// total" (total in cents).
func (f *fixture) journal(t *testing.T, paymentID string) []string {
	t.Helper()
	var rows []struct {
		Kind  string `bun:"kind"`
		Total int64  `bun:"total_minor"`
	}
	err := f.app.DB.NewSelect().Table("ledger_entries").Column("kind", "total_minor").
		Where("source_table = ?", "payments").Where("source_id = ?", paymentID).OrderExpr("created_at, id").Scan(t.Context(), &rows)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%s %d", r.Kind, r.Total)
	}
	return out
}

// payment is the payment with id among the fixture's properties'.
func (f *fixture) payment(t *testing.T, id string) payment {
	t.Helper()
	for _, p := range f.payments(t) {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no payment %s", id)
	return payment{}
}

// An account with imported lines is not deleted (409 in_use, the lines
// and the account kept); one without lines is.
func TestDeletingAnAccountWithLines(t *testing.T) {
	t.Parallel()
	f := start(t)
	f.contract(t, "MV-2026-0401", "Anna Schmidt", 800, "2026-11-01")
	f.bill(t)
	f.importFile(t, camt(8, "DE89370400440532013000", []entry{
		{Ref: "D01", Date: "2026-11-02", Cents: 80000, Name: "Anna Schmidt", IBAN: annaIBAN, Text: "Miete MV-2026-0401"}}), nil)
	var e struct {
		Code    string `json:"error"`
		Message string `json:"message"`
	}
	f.app.Delete("/api/v1/bank-accounts/"+f.account, f.user.Token).Expect(http.StatusConflict).JSON(&e)
	if e.Code != "in_use" || e.Message != "Bank statements were imported into this account (1 line); they are the record of the payments posted from them and are kept, so the account is not deleted." {
		t.Errorf("refusal %+v", e)
	}
	f.app.Get("/api/v1/bank-accounts/"+f.account, f.user.Token).Expect(http.StatusOK)
	if n := f.count(t); n != 1 {
		t.Errorf("%d lines after the refusal", n)
	}
	empty := id(t, f.app.Post("/api/v1/bank-accounts", f.user.Token, map[string]any{"holder": "Hausverwaltung Schmidt", "iban": "DE12500105170648489890"}).Expect(http.StatusCreated))
	f.app.Delete("/api/v1/bank-accounts/"+empty, f.user.Token).Expect(http.StatusNoContent)
}

// A debit line is proposed as a bill: the one provider whose name the
// payee's carries, the booking day, the amount paid; with a property and
// a category the proposal is accepted as it is by POST .../bills. A payee
// that is no provider's gets a proposal without supplier.
func TestDebitLinesProposedAsBills(t *testing.T) {
	t.Parallel()
	f := start(t)
	works := id(t, f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "Stadtwerke Musterstadt"}).Expect(http.StatusCreated))
	f.app.Post("/api/v1/contragents", f.user.Token, map[string]any{"kind": "company", "roles": []string{"provider"}, "name": "Dachdecker Roth"}).Expect(http.StatusCreated)
	r := f.importFile(t, camt(8, "DE89370400440532013000", []entry{
		{Ref: "B01", Date: "2026-11-04", Cents: -23456, Name: "STADTWERKE MUSTERSTADT GMBH", IBAN: "DE02100100109876543210", Text: "Abschlag Strom Allgemein 11/2026"},
		{Ref: "B02", Date: "2026-11-05", Cents: -9900, Name: "Hausmeisterservice Kunz", IBAN: "DE02100100101111111111", Text: "Rechnung 4711"},
	}), nil)
	if r.Debits != 2 {
		t.Fatalf("import %+v", r)
	}
	var l struct {
		Reasons      []string `json:"reasons"`
		BillProposal *struct {
			SupplierID *string `json:"supplier_id"`
			BillDate   string  `json:"bill_date"`
			PaidOn     string  `json:"paid_on"`
			Amount     float64 `json:"amount"`
			Note       string  `json:"note"`
		} `json:"bill_proposal"`
	}
	f.app.Get("/api/v1/bank-lines/"+f.lineByRef(t, "B01").ID, f.user.Token).Expect(http.StatusOK).JSON(&l)
	bp := l.BillProposal
	if bp == nil || bp.SupplierID == nil || *bp.SupplierID != works || bp.BillDate != "2026-11-04" || bp.PaidOn != "2026-11-04" ||
		bp.Amount != 234.56 || bp.Note != "STADTWERKE MUSTERSTADT GMBH Abschlag Strom Allgemein 11/2026" {
		t.Fatalf("proposal %+v", bp)
	}
	if len(l.Reasons) != 2 || l.Reasons[1] != "supplier_name" {
		t.Errorf("reasons %v", l.Reasons)
	}
	body := map[string]any{"supplier_id": *bp.SupplierID, "bill_date": bp.BillDate, "paid_on": bp.PaidOn, "amount": bp.Amount, "note": bp.Note, "category": "operating"}
	var bill struct {
		Amount float64 `json:"amount"`
		Status string  `json:"status"`
	}
	f.app.Post("/api/v1/properties/"+f.property+"/bills", f.user.Token, body).Expect(http.StatusCreated).JSON(&bill)
	if bill.Amount != 234.56 || bill.Status != "paid" {
		t.Errorf("bill %+v", bill)
	}
	var other struct {
		BillProposal *struct {
			SupplierID *string `json:"supplier_id"`
		} `json:"bill_proposal"`
	}
	f.app.Get("/api/v1/bank-lines/"+f.lineByRef(t, "B02").ID, f.user.Token).Expect(http.StatusOK).JSON(&other)
	if other.BillProposal == nil || other.BillProposal.SupplierID != nil {
		t.Errorf("a stranger's debit: %+v", other.BillProposal)
	}
}
