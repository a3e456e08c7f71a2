package payments

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/bankaccounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// MaxAllocations bounds the explicit allocations of one payment.
const MaxAllocations = 1000

// Service holds the rules of payments. It is also the expenses module's
// Ledger: every transaction that creates charges hands them to it, and
// credit is used on them there.
type Service struct {
	db        *bun.DB
	store     *Store
	clock     clock.Clock
	payers    *contragents.Service
	listeners []Listener
	journal   *journal.Journal
	// banks checks a payment's bank account; nil when that module is off.
	banks *bankaccounts.Service
}

// ServiceParams are the service's dependencies as fx provides them. The
// contragents service is nil when that module is off; a payment then names
// no payer. Contracts are checked with contracts.OfProperty, a function:
// the contracts service depends on the expenses service, which depends on
// this one as its Ledger.
type ServiceParams struct {
	fx.In

	DB        *bun.DB
	Store     *Store
	Clock     clock.Clock
	Payers    *contragents.Service  `optional:"true"`
	Listeners []Listener            `group:"payment_listeners"`
	Journal   *journal.Journal      `optional:"true"`
	Banks     *bankaccounts.Service `optional:"true"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: p.Store, clock: p.Clock, payers: p.Payers, listeners: p.Listeners, journal: p.Journal, banks: p.Banks}
}

// Input is a payment to post, as the handler read it.
type Input struct {
	Amount      money.Amount
	Currency    string
	PaidOn      period.Date
	Method      string
	Reference   string
	ContractID  *uuid.UUID
	PayerID     *uuid.UUID
	Allocations []AllocationInput
	// Explicit is true when the client gave allocations (even none).
	Explicit bool
	// Contra is the account the payment's amount is booked from: a set-off
	// names the tenant's claim it settles (a compensation, the deposit);
	// empty, the method decides (cash, else the bank).
	Contra journal.Account
	// BankAccountID is the workspace's bank account the money came into
	// (a payment imported from its statement): the journal books it to
	// that account's sub-account of the bank.
	BankAccountID *uuid.UUID
}

// AllocationInput is one explicit allocation of a payment.
type AllocationInput struct {
	ChargeID uuid.UUID
	Amount   money.Amount
}

// ErrNotFound is what a payment of another property, or none, answers to
// another module: test it with errors.Is.
var ErrNotFound = errNotFound

func errNoPayment() error { return fault.NotFound("Payment not found.").Because(ErrNotFound) }

// Payment returns the payment with the raw id under prop, with its
// allocations.
func (s *Service) Payment(ctx context.Context, prop *properties.Property, rawID string) (*Payment, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNoPayment()
	}
	p, err := s.store.ByID(ctx, s.db, id)
	if errors.Is(err, errNotFound) || (err == nil && p.PropertyID != prop.ID) {
		return nil, errNoPayment()
	}
	if err != nil {
		return nil, err
	}
	if err := s.store.LoadAllocations(ctx, s.db, []*Payment{p}); err != nil {
		return nil, err
	}
	return p, nil
}

// List returns a page of prop's payments with their allocations.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Payment, listing.Result, error) {
	list, total, err := s.store.List(ctx, prop.ID, q)
	if err != nil {
		return nil, listing.Result{}, err
	}
	ptrs := make([]*Payment, len(list))
	for i := range list {
		ptrs[i] = &list[i]
	}
	return list, total, s.store.LoadAllocations(ctx, s.db, ptrs)
}

// Post records a payment for prop in one transaction: the payment, its
// allocations (explicit, or oldest outstanding charges first), the charges'
// paid amounts and what the listeners keep (the receipt).
func (s *Service) Post(ctx context.Context, who auth.Principal, prop *properties.Property, in Input) (*Payment, error) {
	if err := s.check(ctx, prop, &in); err != nil {
		return nil, err
	}
	var out *Payment
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		var err error
		out, err = s.post(ctx, tx, prop, who.UserID, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// check applies the rules that need no transaction.
func (s *Service) check(ctx context.Context, prop *properties.Property, in *Input) error {
	var details []string
	if in.Currency != "" && in.Currency != prop.Currency {
		details = append(details, fmt.Sprintf("currency: must be the property's currency, %s", prop.Currency))
	}
	if in.PaidOn.After(period.DateOf(s.clock.Now())) {
		details = append(details, "paid_on: must not be in the future")
	}
	var sum money.Amount
	seen := map[uuid.UUID]bool{}
	for i, a := range in.Allocations {
		if seen[a.ChargeID] {
			details = append(details, fmt.Sprintf("allocations[%d].charge_id: appears twice", i))
		}
		seen[a.ChargeID] = true
		sum += a.Amount
	}
	if sum > in.Amount {
		details = append(details, fmt.Sprintf("allocations: add up to %s, more than the amount %s", sum, in.Amount))
	}
	if in.ContractID != nil {
		switch ok, err := s.contractOf(ctx, prop, *in.ContractID); {
		case err != nil:
			return err
		case !ok:
			details = append(details, "contract_id: must be a contract of this property")
		}
	}
	if in.BankAccountID != nil {
		d, err := s.checkBank(ctx, prop, in)
		if err != nil {
			return err
		}
		details = append(details, d...)
	}
	if in.PayerID == nil && in.ContractID != nil && len(details) == 0 {
		// A payment for a contract is its tenant's unless it names another
		// payer: the receipt then shows who paid.
		tenant, ok, err := contracts.TenantOf(ctx, s.db, *in.ContractID)
		if err != nil {
			return err
		}
		if ok {
			in.PayerID = &tenant
		}
	}
	if in.PayerID != nil {
		switch ok, err := s.payerOf(ctx, prop, *in.PayerID); {
		case err != nil:
			return err
		case !ok:
			details = append(details, "payer_id: must be a contragent of the property's owner")
		}
	}
	if len(details) > 0 {
		return fault.Validation(details...)
	}
	return nil
}

// checkBank refuses a bank account that is not the workspace's (another
// workspace's, a deleted one, none), one in another currency, and one
// named for money that reached no bank (cash, a set-off).
func (s *Service) checkBank(ctx context.Context, prop *properties.Property, in *Input) ([]string, error) {
	if in.Method == "cash" || in.Method == SetOff {
		return []string{"bank_account_id: only for money paid into a bank, not for method " + in.Method}, nil
	}
	if s.banks == nil {
		return []string{"bank_account_id: the bank accounts module is switched off"}, nil
	}
	acct, err := s.banks.InWorkspace(ctx, s.db, prop.WorkspaceID, *in.BankAccountID)
	if errors.Is(err, bankaccounts.ErrNotFound) {
		return []string{"bank_account_id: must be a bank account of the workspace"}, nil
	}
	if err != nil {
		return nil, err
	}
	if acct.Currency != "" && acct.Currency != prop.Currency {
		return []string{fmt.Sprintf("bank_account_id: the account is in %s, the property's payments in %s", acct.Currency, prop.Currency)}, nil
	}
	return nil, nil
}

func (s *Service) contractOf(ctx context.Context, prop *properties.Property, id uuid.UUID) (bool, error) {
	return contracts.OfProperty(ctx, s.db, prop.ID, id)
}

func (s *Service) payerOf(ctx context.Context, prop *properties.Property, id uuid.UUID) (bool, error) {
	if s.payers == nil {
		return false, nil
	}
	c, err := s.payers.ByID(ctx, s.db, id)
	if errors.Is(err, contragents.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return c.WorkspaceID == prop.WorkspaceID, nil
}

// payerName is the payer's name for the receipt, "" when none or unknown.
func (s *Service) payerName(ctx context.Context, tx bun.IDB, id *uuid.UUID) (string, error) {
	if id == nil || s.payers == nil {
		return "", nil
	}
	c, err := s.payers.ByID(ctx, tx, *id)
	if errors.Is(err, contragents.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return c.Name, nil
}

// post does Post's work inside tx, which holds the property's lock.
func (s *Service) post(ctx context.Context, tx bun.Tx, prop *properties.Property, by int64, in Input) (*Payment, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("payment id: %w", err)
	}
	now := s.now()
	p := &Payment{
		ID: id, PropertyID: prop.ID, OwnerID: prop.OwnerID, ContractID: in.ContractID, PayerID: in.PayerID,
		Amount: in.Amount, Currency: prop.Currency, PaidOn: in.PaidOn, Method: in.Method, Reference: in.Reference,
		Status: Posted, CreatedBy: by, CreatedAt: now, UpdatedAt: now,
	}
	var charges []*expenses.Charge
	var amounts []money.Amount
	if in.Explicit {
		charges, amounts, err = s.explicit(ctx, tx, prop, in)
	} else {
		charges, amounts, err = s.oldestFirst(ctx, tx, prop, in)
	}
	if err != nil {
		return nil, err
	}
	var given money.Amount
	for _, a := range amounts {
		given += a
	}
	p.Unallocated = p.Amount - given
	if err := s.store.Insert(ctx, tx, p); err != nil {
		return nil, err
	}
	lines, err := s.allocate(ctx, tx, []*Payment{p}, charges, amounts, func(int) *Payment { return p })
	if err != nil {
		return nil, err
	}
	if err := s.journal.Post(ctx, tx, paymentEntry(prop, p, in, charges, amounts)); err != nil {
		return nil, err
	}
	name, err := s.payerName(ctx, tx, p.PayerID)
	if err != nil {
		return nil, err
	}
	for _, l := range s.listeners {
		if err := l.PaymentPosted(ctx, tx, PostedPayment{Payment: p, WorkspaceID: prop.WorkspaceID, PayerName: name, Lines: lines}); err != nil {
			return nil, err
		}
	}
	err = activity.Record(ctx, tx, activity.Entry{
		Action: activity.Created, RecordType: "payment", RecordID: p.ID.String(), WorkspaceID: prop.WorkspaceID,
		Changes: activity.Diff(nil, paymentOut(p)),
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// explicit checks the client's allocations against the charges, read and
// locked in tx.
func (s *Service) explicit(ctx context.Context, tx bun.Tx, prop *properties.Property, in Input) ([]*expenses.Charge, []money.Amount, error) {
	ids := make([]uuid.UUID, len(in.Allocations))
	for i, a := range in.Allocations {
		ids[i] = a.ChargeID
	}
	found, err := expenses.ChargesByID(ctx, tx, prop.ID, ids)
	if err != nil {
		return nil, nil, err
	}
	var details []string
	var cancelled, over []string
	charges := make([]*expenses.Charge, len(in.Allocations))
	amounts := make([]money.Amount, len(in.Allocations))
	for i, a := range in.Allocations {
		c, ok := found[a.ChargeID]
		switch {
		case !ok:
			details = append(details, fmt.Sprintf("allocations[%d].charge_id: not a charge of this property", i))
			continue
		case in.ContractID != nil && (c.ContractID == nil || *c.ContractID != *in.ContractID):
			details = append(details, fmt.Sprintf("allocations[%d].charge_id: not a charge of the payment's contract", i))
			continue
		case c.Status == expenses.Cancelled:
			cancelled = append(cancelled, fmt.Sprintf("allocations[%d]: the charge is cancelled", i))
		case a.Amount > c.Outstanding():
			over = append(over, fmt.Sprintf("allocations[%d].amount: %s is more than the %s owed", i, a.Amount, c.Outstanding()))
		}
		charges[i], amounts[i] = c, a.Amount
	}
	switch {
	case len(details) > 0:
		return nil, nil, fault.Validation(details...)
	case len(cancelled) > 0:
		return nil, nil, conflict("charge_cancelled", append(cancelled, over...))
	case len(over) > 0:
		return nil, nil, conflict("over_allocated", over)
	}
	return charges, amounts, nil
}

// conflict is a 409 with the lines that explain it.
func conflict(code string, lines []string) error {
	e := fault.Conflict(code, lines[0])
	e.Details = lines
	return e
}

// oldestFirst spreads the payment over the outstanding charges, oldest
// first (of the contract, when the payment names one, in its allocation
// order).
func (s *Service) oldestFirst(ctx context.Context, tx bun.Tx, prop *properties.Property, in Input) ([]*expenses.Charge, []money.Amount, error) {
	open, err := expenses.OpenCharges(ctx, tx, prop.ID, in.ContractID)
	if err != nil {
		return nil, nil, err
	}
	if in.ContractID != nil {
		if open, err = inContractOrder(ctx, tx, *in.ContractID, open); err != nil {
			return nil, nil, err
		}
	}
	left := in.Amount
	var charges []*expenses.Charge
	var amounts []money.Amount
	for i := range open {
		if left == 0 {
			break
		}
		give := min(left, open[i].Outstanding())
		if give <= 0 {
			continue
		}
		charges, amounts = append(charges, &open[i]), append(amounts, give)
		left -= give
	}
	return charges, amounts, nil
}

// allocate writes the allocations of charges[i] (amounts[i], from the
// payment of(i)), adds them to the charges' paid amounts and returns the
// receipt lines.
func (s *Service) allocate(ctx context.Context, tx bun.IDB, _ []*Payment, charges []*expenses.Charge, amounts []money.Amount, of func(int) *Payment) ([]Line, error) {
	if len(charges) == 0 {
		return []Line{}, nil
	}
	now := s.now()
	rows := make([]Allocation, len(charges))
	changes := make([]expenses.PaidChange, 0, len(charges))
	lines := make([]Line, len(charges))
	byCharge := map[uuid.UUID]int{}
	for i, c := range charges {
		p := of(i)
		rows[i] = Allocation{PaymentID: p.ID, ChargeID: c.ID, PropertyID: c.PropertyID, Amount: amounts[i], CreatedAt: now}
		p.Allocations = append(p.Allocations, rows[i])
		lines[i] = Line{ChargeName: c.Name, Period: c.Period, DueDate: c.DueDate, Amount: amounts[i]}
		// Credit of several payments may go to one charge: one change each.
		if j, ok := byCharge[c.ID]; ok {
			changes[j].Delta += amounts[i]
			continue
		}
		byCharge[c.ID] = len(changes)
		changes = append(changes, expenses.PaidChange{ChargeID: c.ID, Delta: amounts[i]})
	}
	if err := s.store.InsertAllocations(ctx, tx, rows); err != nil {
		return nil, err
	}
	if err := expenses.AddPaid(ctx, tx, changes); err != nil {
		return nil, err
	}
	return lines, nil
}

// Reverse marks the posted payment p reversed, in one transaction: its
// allocations are voided, the charges owe again what it paid, the
// listeners void what they keep (the receipt).
func (s *Service) Reverse(ctx context.Context, who auth.Principal, prop *properties.Property, p *Payment, reason string) (*Payment, error) {
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		return s.reverse(ctx, tx, who.UserID, prop, p, reason)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// reverse is Reverse's work inside tx, which holds the property's lock.
func (s *Service) reverse(ctx context.Context, tx bun.Tx, by int64, prop *properties.Property, p *Payment, reason string) error {
	cur, err := s.store.ByID(ctx, tx, p.ID)
	if err != nil {
		return err
	}
	if cur.Status != Posted {
		return fault.Conflict("already_reversed", "The payment was reversed already.")
	}
	if err := s.store.LoadAllocations(ctx, tx, []*Payment{cur}); err != nil {
		return err
	}
	changes := make([]expenses.PaidChange, 0, len(cur.Allocations))
	byCharge := map[uuid.UUID]int{}
	for _, a := range cur.Allocations {
		if j, ok := byCharge[a.ChargeID]; ok {
			changes[j].Delta -= a.Amount
			continue
		}
		byCharge[a.ChargeID] = len(changes)
		changes = append(changes, expenses.PaidChange{ChargeID: a.ChargeID, Delta: -a.Amount})
	}
	if err := expenses.AddPaid(ctx, tx, changes); err != nil {
		return err
	}
	before := paymentOut(cur)
	now := s.now()
	cur.Status, cur.ReversedAt, cur.ReversedBy, cur.ReversalReason = Reversed, &now, &by, &reason
	cur.Unallocated, cur.UpdatedAt, cur.Allocations = 0, now, nil
	if err := s.store.MarkReversed(ctx, tx, cur); err != nil {
		return err
	}
	err = s.journal.Reverse(ctx, tx, journal.Reversal{WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, Date: period.DateOf(now),
		Kind: journal.KindReversal, SourceTable: "payments", SourceID: cur.ID, Memo: "payment reversed"})
	if err != nil {
		return err
	}
	for _, l := range s.listeners {
		if err := l.PaymentReversed(ctx, tx, cur); err != nil {
			return err
		}
	}
	*p = *cur
	return activity.Record(ctx, tx, activity.Entry{
		Action: activity.Reversed, RecordType: "payment", RecordID: cur.ID.String(), WorkspaceID: prop.WorkspaceID,
		Changes: activity.Diff(before, paymentOut(cur)),
	})
}

// PostTx posts a payment inside tx, the caller's transaction, which holds
// the property's lock (properties.Lock): a module that settles charges
// with money it accounts for itself (a compensation credited to the
// tenant, a deposit applied to what is owed) records it as a payment, so
// that every paid amount stays the sum of allocations. The caller has
// checked what Post checks before its transaction: the contract and payer
// are the property's, the date not in the future, explicit allocations
// unique and within the amount. by is the user who acts. Receipt and
// listeners as for any payment.
func (s *Service) PostTx(ctx context.Context, tx bun.Tx, prop *properties.Property, by int64, in Input) (*Payment, error) {
	return s.post(ctx, tx, prop, by, in)
}

// ReverseTx reverses the posted payment with id inside tx, which holds the
// property's lock: what a module that posted it with PostTx does when its
// own record is undone. 409 already_reversed when it is reversed already,
// ErrNotFound-like 404 when it is not the property's.
func (s *Service) ReverseTx(ctx context.Context, tx bun.Tx, prop *properties.Property, by int64, id uuid.UUID, reason string) (*Payment, error) {
	p, err := s.store.ByID(ctx, tx, id)
	if errors.Is(err, errNotFound) || (err == nil && p.PropertyID != prop.ID) {
		return nil, errNoPayment()
	}
	if err != nil {
		return nil, err
	}
	if err := s.reverse(ctx, tx, by, prop, p, reason); err != nil {
		return nil, err
	}
	return p, nil
}

// ChargesCreated is the Ledger's hook: in tx, the transaction that created
// the charges, the property's unallocated credit goes to them, oldest
// payment first, each charge in due-date order; a payment that names a
// contract gives credit only to that contract's charges.
func (s *Service) ChargesCreated(ctx context.Context, tx bun.IDB, propertyID uuid.UUID, created []expenses.Charge) error {
	// The callers hold the property's lock already, except the counters'
	// reading transaction: taking it (again) is cheap and keeps every
	// writer of paid amounts in one line.
	if btx, ok := tx.(bun.Tx); ok {
		if _, err := properties.Lock(ctx, btx, propertyID); err != nil {
			return err
		}
	}
	credit, err := s.store.WithCredit(ctx, tx, propertyID)
	if err != nil || len(credit) == 0 {
		return err
	}
	order := make([]*expenses.Charge, 0, len(created))
	for i := range created {
		if created[i].Status == expenses.Unpaid {
			order = append(order, &created[i])
		}
	}
	slices.SortStableFunc(order, func(a, b *expenses.Charge) int {
		if c := a.DueDate.Time().Compare(b.DueDate.Time()); c != 0 {
			return c
		}
		return a.CreatedAt.Compare(b.CreatedAt)
	})
	var charges []*expenses.Charge
	var amounts []money.Amount
	var from []*Payment
	for _, c := range order {
		owed := c.Outstanding()
		for _, p := range credit {
			if owed == 0 {
				break
			}
			if p.Unallocated == 0 || (p.ContractID != nil && (c.ContractID == nil || *c.ContractID != *p.ContractID)) {
				continue
			}
			give := min(owed, p.Unallocated)
			p.Unallocated -= give
			owed -= give
			charges, amounts, from = append(charges, c), append(amounts, give), append(from, p)
		}
	}
	if len(charges) == 0 {
		return nil
	}
	if _, err := s.allocate(ctx, tx, nil, charges, amounts, func(i int) *Payment { return from[i] }); err != nil {
		return err
	}
	if err := s.journal.Post(ctx, tx, creditEntries(propertyID, charges, amounts, from)...); err != nil {
		return err
	}
	return s.store.SetUnallocated(ctx, tx, credit, s.now())
}

// CreditHolders tells the expenses' billing run which of a batch's
// properties have credit, so that it hands ChargesCreated only those.
func (s *Service) CreditHolders(ctx context.Context, tx bun.IDB, propertyIDs []uuid.UUID) ([]uuid.UUID, error) {
	return s.store.CreditHolders(ctx, tx, propertyIDs)
}

// ChargeEnteredPaid is the Ledger's hook for a manual charge entered as
// paid: a payment (method other, paid today) settles it, receipt included.
func (s *Service) ChargeEnteredPaid(ctx context.Context, tx bun.IDB, c *expenses.Charge) error {
	btx, ok := tx.(bun.Tx)
	if !ok {
		return errors.New("payments: a charge entered as paid needs a transaction")
	}
	prop, err := properties.Lock(ctx, btx, c.PropertyID)
	if err != nil {
		return err
	}
	in := Input{
		Amount: c.Amount, PaidOn: period.DateOf(s.clock.Now()), Method: "other",
		Reference: "entered as paid with the charge", ContractID: c.ContractID,
		Allocations: []AllocationInput{{ChargeID: c.ID, Amount: c.Amount}}, Explicit: true,
	}
	_, err = s.post(ctx, btx, prop, prop.OwnerID, in)
	return err
}

// Balance is a property's (or a contract's) money at a glance.
type Balance struct {
	Currency    string       `json:"currency"`
	Charged     money.Amount `json:"charged"`
	Paid        money.Amount `json:"paid"`
	Outstanding money.Amount `json:"outstanding"`
	Overdue     money.Amount `json:"overdue"`
	Credit      money.Amount `json:"credit"`
	AsOf        period.Date  `json:"as_of"`
}

// Balance returns prop's balance in one query: charged (charges not
// cancelled), paid (posted payments), outstanding, overdue (outstanding
// of charges due before asOf, default today) and credit (unallocated).
func (s *Service) Balance(ctx context.Context, prop *properties.Property, contractID *uuid.UUID, asOf period.Date) (Balance, error) {
	if asOf.IsZero() {
		asOf = period.DateOf(s.clock.Now())
	}
	b, err := s.store.Balance(ctx, prop.ID, contractID, asOf)
	if err != nil {
		return Balance{}, err
	}
	b.Currency, b.AsOf = prop.Currency, asOf
	return b, nil
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// Today is the service clock's date, against which a payment's date is
// checked.
func (s *Service) Today() period.Date { return period.DateOf(s.clock.Now()) }
