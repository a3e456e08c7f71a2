// Package journal is the seam between the modules that move money and the
// ledger that books it. A money module calls Journal.Post (or Reverse) in
// the transaction of its own event, with every query through that
// transaction; the ledger module, when it is on, adds its Poster to the
// value group "journal_posters". With the ledger switched off the Journal
// has no poster and Post costs nothing, so no money module imports the
// ledger.
package journal

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Account is the role of an account in a workspace's chart. The ledger
// maps each role to its numbered account; money modules name roles, never
// numbers, so the numbering can change without them.
type Account string

// The roles a money event books to.
const (
	Cash                Account = "cash"
	Bank                Account = "bank"
	Receivable          Account = "receivable"
	DepositsHeld        Account = "deposits_held"
	Prepayments         Account = "prepayments"
	TenantCredit        Account = "tenant_credit"
	RefundsPayable      Account = "refunds_payable"
	RentIncome          Account = "rent_income"
	OtherIncome         Account = "other_income"
	CompensationExpense Account = "compensation_expense"
	// DepositInterest is the interest a deposit earned for the tenant
	// (Germany, § 551 Abs. 3 BGB), added to it at the settlement.
	DepositInterest Account = "deposit_interest"
	// BillsPayable is what the landlord owes suppliers: a bill is
	// credited here when it is recorded and debited when it is paid.
	BillsPayable Account = "bills_payable"
	// The landlord's costs by category, which a bill is debited to.
	CostRepairs     Account = "cost_repairs"
	CostInsurance   Account = "cost_insurance"
	CostPropertyTax Account = "cost_property_tax"
	CostOperating   Account = "cost_operating"
	CostManagement  Account = "cost_management"
	CostOther       Account = "cost_other"
	// CostInterest is the interest part of a loan's instalments (a bill
	// of category loan_interest); the repayment of principal is no cost.
	CostInterest Account = "cost_interest"
)

// Line is one line of an entry: an amount on one side of one account,
// with the contract and property it concerns (the receivable of a contract
// is the receivable account's lines of that contract).
type Line struct {
	Account    Account
	ContractID *uuid.UUID
	PropertyID *uuid.UUID
	// BankAccountID names, on a Bank line, the workspace's bank account
	// (modules/bankaccounts) the money is in: the ledger books it to that
	// account's own sub-account. Nil is the general bank account.
	BankAccountID *uuid.UUID
	Debit         money.Amount
	Credit        money.Amount
}

// Entry is one money event: its lines' debits equal their credits.
// WorkspaceID may be 0 when PropertyID is set: the ledger reads the
// property's workspace. Source names the record the event concerns
// (table and id); a Reverse of that source undoes every entry it has.
type Entry struct {
	WorkspaceID int64
	PropertyID  uuid.UUID
	Date        period.Date
	Kind        string
	SourceTable string
	SourceID    uuid.UUID
	Memo        string
	Currency    string
	Lines       []Line
}

// Reversal undoes, with a new entry dated Date, what the entries of one
// source booked (their net, account by account): entries are never
// changed.
type Reversal struct {
	WorkspaceID int64
	PropertyID  uuid.UUID
	Date        period.Date
	Kind        string
	SourceTable string
	SourceID    uuid.UUID
	Memo        string
}

// The kinds of event an entry records.
const (
	KindCharge         = "charge"
	KindPayment        = "payment"
	KindCreditApplied  = "credit_applied"
	KindSetOff         = "set_off"
	KindDepositSettled = "deposit_settled"
	KindRefundDue      = "refund_due"
	KindRefundPaid     = "refund_paid"
	KindCompensation   = "compensation_paid"
	KindReversal       = "reversal"
	KindBill           = "bill"
	KindBillPaid       = "bill_paid"
)

// Check reports an entry that must never be written: no lines, a line
// with both or neither side, a negative amount, or debits that differ
// from credits.
func (e *Entry) Check() error {
	if len(e.Lines) < 2 {
		return fmt.Errorf("journal: entry %s %s has %d lines, needs two", e.SourceTable, e.Kind, len(e.Lines))
	}
	var dr, cr money.Amount
	for i, l := range e.Lines {
		if l.Debit < 0 || l.Credit < 0 || (l.Debit == 0) == (l.Credit == 0) || l.Account == "" {
			return fmt.Errorf("journal: entry %s %s line %d: one positive side and an account needed", e.SourceTable, e.Kind, i)
		}
		dr += l.Debit
		cr += l.Credit
	}
	if dr != cr {
		return fmt.Errorf("journal: entry %s %s does not balance: debit %s, credit %s", e.SourceTable, e.Kind, dr, cr)
	}
	return nil
}

// Poster books entries; the ledger module provides one.
type Poster interface {
	Post(ctx context.Context, tx bun.IDB, entries ...Entry) error
	Reverse(ctx context.Context, tx bun.IDB, r Reversal) error
}

// Sum is what the lines of one account, source table and currency came
// to: a report reads the books through it without knowing the chart.
type Sum struct {
	Account     Account
	SourceTable string
	Currency    string
	Debit       money.Amount
	Credit      money.Amount
}

// Reader reads the books; the ledger module provides one.
type Reader interface {
	// Sums adds up the lines of the property dated from from to to, both
	// inclusive (from zero: since the first entry).
	Sums(ctx context.Context, propertyID uuid.UUID, from, to period.Date) ([]Sum, error)
}

// Journal is what money modules call: every poster of the group, none
// when the ledger is off; and the reader reports use, none when it is
// off.
type Journal struct {
	posters []Poster
	readers []Reader
}

// Params are the Journal's dependencies.
type Params struct {
	fx.In

	Posters []Poster `group:"journal_posters"`
	Readers []Reader `group:"journal_readers"`
}

// New returns the Journal of the app's posters and readers.
func New(p Params) *Journal { return &Journal{posters: p.Posters, readers: p.Readers} }

// Readable reports whether the books can be read (the ledger is on).
func (j *Journal) Readable() bool { return j != nil && len(j.readers) > 0 }

// Sums returns the sums of the property's lines from from to to (see
// Reader); nothing when no ledger keeps the books.
func (j *Journal) Sums(ctx context.Context, propertyID uuid.UUID, from, to period.Date) ([]Sum, error) {
	if !j.Readable() {
		return nil, nil
	}
	return j.readers[0].Sums(ctx, propertyID, from, to)
}

// On reports whether anything books entries (the ledger is on).
func (j *Journal) On() bool { return j != nil && len(j.posters) > 0 }

// Post books entries through tx, the event's transaction. An entry that
// does not balance is an error here already, before any poster sees it.
func (j *Journal) Post(ctx context.Context, tx bun.IDB, entries ...Entry) error {
	if !j.On() || len(entries) == 0 {
		return nil
	}
	for i := range entries {
		if err := entries[i].Check(); err != nil {
			return err
		}
	}
	for _, p := range j.posters {
		if err := p.Post(ctx, tx, entries...); err != nil {
			return err
		}
	}
	return nil
}

// Reverse books the reversal of a source's entries through tx.
func (j *Journal) Reverse(ctx context.Context, tx bun.IDB, r Reversal) error {
	if !j.On() {
		return nil
	}
	for _, p := range j.posters {
		if err := p.Reverse(ctx, tx, r); err != nil {
			return err
		}
	}
	return nil
}

// ProvidePoster adds the Poster constructor makes to the app's posters.
func ProvidePoster(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(Poster)), fx.ResultTags(`group:"journal_posters"`)))
}

// ProvideReader adds the Reader constructor makes to the app's readers.
func ProvideReader(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(Reader)), fx.ResultTags(`group:"journal_readers"`)))
}

// Module is what the platform provides: the Journal, empty until a module
// adds a poster.
var Module = fx.Provide(New)
