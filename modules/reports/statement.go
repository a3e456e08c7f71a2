package reports

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/printstyle"
)

// Statements makes the monthly owner statement of a property.
type Statements struct {
	store    *Store
	accounts *accounts.Service
	journal  *journal.Journal
	dicts    *translations.Dictionaries
}

// NewStatements returns the statement maker.
func NewStatements(store *Store, acc *accounts.Service, j *journal.Journal, dicts *translations.Dictionaries) *Statements {
	return &Statements{store: store, accounts: acc, journal: j, dicts: dicts}
}

// Statement is one property's month: the money that came and went, what
// was settled without money, and what the landlord holds or owes at the
// month's end.
type Statement struct {
	Property *properties.Property
	Month    period.Date // first day
	Locale   string
	Owner    string
	words    map[string]string

	// Cash received from tenants (set-offs excepted), by what it paid.
	Rent, Other, Deposits, Prepayments, Advance money.Amount
	// Books is false when no ledger keeps the books: the rest is unknown.
	Books bool
	// Cash paid out: bills, and refunds or compensations to tenants.
	BillsPaid, PaidOut money.Amount
	// Set-offs of the month: no money moved.
	ClaimsSetOff, DepositApplied money.Amount
	// At the month's end.
	DepositsHeld, RefundsDue, BillsUnpaid money.Amount
	Charged, Outstanding                  money.Amount
}

// Income is the rent and other income received.
func (s *Statement) Income() money.Amount { return s.Rent + s.Other }

// In is all the money received from tenants.
func (s *Statement) In() money.Amount { return s.Income() + s.Deposits + s.Prepayments + s.Advance }

// Out is all the money paid out.
func (s *Statement) Out() money.Amount { return s.BillsPaid + s.PaidOut }

// Net is the money received less the money paid out.
func (s *Statement) Net() money.Amount { return s.In() - s.Out() }

// statementKeys are the catalogue's words of the statement
// (reports.statement.<key>).
var statementKeys = []string{"title", "owner", "property", "month", "cash_in", "rent", "other", "income", "deposits", "prepayments",
	"advance", "total_in", "none", "cash_out", "bills_paid", "payouts", "total_out", "net", "noncash", "setoff_claims",
	"deposit_applied", "month_end", "deposits_held", "refunds_due", "bills_unpaid", "noledger", "charged", "outstanding"}

// Load reads the month of prop. The money received is split as the
// income report's cash basis splits it (set-offs apart); what went out,
// what was set off and the month-end balances are the ledger's (the
// property's lines of the bank and cash accounts, of the set-offs, of
// deposits held, refunds payable and bills payable).
func (s *Statements) Load(ctx context.Context, prop *properties.Property, month period.Date) (*Statement, error) {
	next := period.NewDate(month.Year(), month.Month()+1, 1)
	last := period.NewDate(month.Year(), month.Month()+1, 0)
	st := &Statement{Property: prop, Month: month, Locale: "en"}
	if u, err := s.accounts.User(ctx, prop.OwnerID); err == nil {
		st.Owner = u.Name
		if u.Locale != "" {
			st.Locale = u.Locale
		}
	}
	keys := make([]string, len(statementKeys))
	for i, k := range statementKeys {
		keys[i] = "reports.statement." + k
	}
	found, _ := s.dicts.Select(st.Locale, keys)
	st.words = make(map[string]string, len(found))
	for _, k := range statementKeys {
		st.words[k] = found["reports.statement."+k]
	}
	split, err := s.store.IncomeBy(ctx, prop.WorkspaceID, month.Year(), &prop.ID, true)
	if err != nil {
		return nil, err
	}
	for _, r := range split {
		if r.Month != int(month.Month()) || r.Currency != prop.Currency {
			continue
		}
		switch r.Class {
		case ClassRent:
			st.Rent += r.Amount
		case ClassOther:
			st.Other += r.Amount
		case ClassDeposit:
			st.Deposits += r.Amount
		case ClassPrepayment:
			st.Prepayments += r.Amount
		case ClassAdvance:
			st.Advance += r.Amount
		}
	}
	if st.Charged, st.Outstanding, err = s.store.MonthCharges(ctx, prop.ID, month, next); err != nil {
		return nil, err
	}
	if st.Books = s.journal.Readable(); !st.Books {
		return st, nil
	}
	inMonth, err := s.journal.Sums(ctx, prop.ID, month, last)
	if err != nil {
		return nil, err
	}
	for _, l := range inMonth {
		if l.Currency != prop.Currency {
			continue
		}
		net := l.Debit - l.Credit
		switch {
		case (l.Account == journal.Bank || l.Account == journal.Cash) && l.SourceTable == "bill_payments":
			st.BillsPaid -= net
		case (l.Account == journal.Bank || l.Account == journal.Cash) && l.SourceTable == "compensation_payouts":
			st.PaidOut -= net
		case l.SourceTable == "payments" && (l.Account == journal.CompensationExpense || l.Account == journal.RefundsPayable):
			st.ClaimsSetOff += net
		case l.SourceTable == "payments" && l.Account == journal.DepositsHeld:
			st.DepositApplied += net
		}
	}
	balances, err := s.journal.Sums(ctx, prop.ID, period.Date{}, last)
	if err != nil {
		return nil, err
	}
	for _, l := range balances {
		if l.Currency != prop.Currency {
			continue
		}
		switch l.Account {
		case journal.DepositsHeld:
			st.DepositsHeld += l.Credit - l.Debit
		case journal.RefundsPayable:
			st.RefundsDue += l.Credit - l.Debit
		case journal.BillsPayable:
			st.BillsUnpaid += l.Credit - l.Debit
		}
	}
	return st, nil
}

// PDF draws st on one A4 page (more when it has many lines), amounts and
// dates written as the owner's locale writes them (platform/printstyle).
func (s *Statement) PDF(created time.Time) ([]byte, error) {
	w := s.words
	style := printstyle.Of(s.Locale)
	cur := s.Property.Currency
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetMargins(20, 20, 20)
	pdf.SetAutoPageBreak(true, 20)
	pdf.AddUTF8FontFromBytes("go", "", goregular.TTF)
	pdf.AddUTF8FontFromBytes("go", "B", gobold.TTF)
	created = created.UTC().Truncate(time.Second)
	pdf.SetCreationDate(created)
	pdf.SetModificationDate(created)
	pdf.SetTitle(w["title"], true)
	pdf.SetCreator("propman", true)
	pdf.SetProducer("propman", true)
	pdf.SetLang(s.Locale)
	pdf.AddPage()
	pdf.SetFont("go", "B", 16)
	pdf.CellFormat(0, 9, w["title"], "", 1, "L", false, 0, "")
	pdf.SetFont("go", "", 10)
	label := func(k, v string) {
		pdf.SetFont("go", "B", 10)
		pdf.CellFormat(40, 6, w[k], "", 0, "L", false, 0, "")
		pdf.SetFont("go", "", 10)
		pdf.CellFormat(0, 6, printforms.Printable(v, false), "", 1, "L", false, 0, "")
	}
	if s.Owner != "" {
		label("owner", s.Owner)
	}
	addr := s.Property.Name
	if a := strings.TrimSpace(strings.Join([]string{s.Property.Address, s.Property.PostalCode, s.Property.City}, " ")); a != "" {
		addr += ", " + a
	}
	label("property", addr)
	label("month", style.Period(s.Month.String()[:7]))
	pdf.Ln(4)
	amountRow := func(k string, a money.Amount, bold bool) {
		f := ""
		if bold {
			f = "B"
		}
		pdf.SetFont("go", f, 10)
		pdf.CellFormat(130, 6, w[k], "", 0, "L", false, 0, "")
		pdf.CellFormat(0, 6, style.Money(a, cur), "", 1, "R", false, 0, "")
	}
	section := func(k string) {
		pdf.Ln(2)
		pdf.SetFont("go", "B", 12)
		pdf.CellFormat(0, 8, w[k], "B", 1, "L", false, 0, "")
	}
	note := func(k string) {
		pdf.SetFont("go", "", 10)
		pdf.MultiCell(0, 5, w[k], "", "L", false)
	}
	section("cash_in")
	if s.In() == 0 {
		note("none")
	}
	amountRow("rent", s.Rent, false)
	amountRow("other", s.Other, false)
	amountRow("income", s.Income(), true)
	amountRow("deposits", s.Deposits, false)
	amountRow("prepayments", s.Prepayments, false)
	amountRow("advance", s.Advance, false)
	amountRow("total_in", s.In(), true)
	if !s.Books {
		pdf.Ln(2)
		note("noledger")
	} else {
		section("cash_out")
		amountRow("bills_paid", s.BillsPaid, false)
		amountRow("payouts", s.PaidOut, false)
		amountRow("total_out", s.Out(), true)
		pdf.Ln(2)
		amountRow("net", s.Net(), true)
		section("noncash")
		amountRow("setoff_claims", s.ClaimsSetOff, false)
		amountRow("deposit_applied", s.DepositApplied, false)
		section("month_end")
		amountRow("deposits_held", s.DepositsHeld, false)
		amountRow("refunds_due", s.RefundsDue, false)
		amountRow("bills_unpaid", s.BillsUnpaid, false)
	}
	pdf.Ln(4)
	amountRow("charged", s.Charged, false)
	amountRow("outstanding", s.Outstanding, false)
	var out bytes.Buffer
	if err := pdf.Output(&out); err != nil {
		return nil, fmt.Errorf("owner statement: %w", err)
	}
	return out.Bytes(), nil
}
