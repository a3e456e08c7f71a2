package expenses

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// ChargeInput carries a manual charge as the handler checked it. Period
// defaults to the month of DueDate, Currency to the property's, Status to
// unpaid.
type ChargeInput struct {
	Name *string
	// Generated, when set, names the charge by kind (the contracts
	// module's deposit); Name is then ignored.
	Generated *chargename.Name
	Amount    *money.Amount
	Currency  *string
	Period    *string
	DueDate   *period.Date
	Status    *string
}

// Charges returns a page of prop's charges.
func (s *Service) Charges(ctx context.Context, prop *properties.Property, q listing.Query) ([]Charge, listing.Result, error) {
	return s.store.Charges(ctx, prop.ID, q)
}

// CreateCharge adds a manual charge (one no expense generated) to prop, in
// one transaction with the ledger's use of credit on it.
func (s *Service) CreateCharge(ctx context.Context, prop *properties.Property, in ChargeInput) (*Charge, error) {
	var c *Charge
	err := database.RunInTx(ctx, s.store.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		var err error
		c, err = s.createCharge(ctx, tx, prop, in, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// CreateChargeTx adds a manual charge to prop inside tx, the caller's
// transaction, which holds the property's lock (properties.Lock), under
// the same rules as CreateCharge, linked to the contract contractID.
func (s *Service) CreateChargeTx(ctx context.Context, tx bun.IDB, prop *properties.Property, in ChargeInput, contractID uuid.UUID) (*Charge, error) {
	return s.createCharge(ctx, tx, prop, in, &contractID)
}

func (s *Service) createCharge(ctx context.Context, db bun.IDB, prop *properties.Property, in ChargeInput, contractID *uuid.UUID) (*Charge, error) {
	details := required(field{"name", in.Name != nil || in.Generated != nil}, field{"amount", in.Amount != nil}, field{"due_date", in.DueDate != nil})
	cur := prop.Currency
	if in.Currency != nil {
		code, err := properties.CurrencyCode(*in.Currency)
		if err != nil {
			details = append(details, "currency: "+err.Error())
		}
		cur = code
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("charge id: %w", err)
	}
	c := &Charge{
		ID: id, PropertyID: prop.ID, Origin: id, NameKind: chargename.Custom, Amount: *in.Amount, Currency: cur,
		Period: period.MonthLabel(*in.DueDate), DueDate: *in.DueDate, Status: Unpaid, ContractID: contractID,
		Kind: Regular, CreatedAt: s.now(),
	}
	if in.Generated != nil {
		setName(&c.Name, &c.NameKind, &c.NameArgs, *in.Generated)
	} else {
		c.Name = *in.Name
	}
	if in.Period != nil {
		c.Period = *in.Period
	}
	status := Unpaid
	if in.Status != nil {
		status = *in.Status
	}
	switch {
	case status == Cancelled:
		c.Status = Cancelled
	case status == Paid && s.ledger == nil:
		c.Status, c.PaidAmount = Paid, c.Amount
	}
	if err := s.store.InsertCharge(ctx, db, c); err != nil {
		return nil, err
	}
	switch {
	case c.Status != Unpaid:
	case status == Paid:
		if err := s.bookCharges(ctx, db, []Charge{*c}); err != nil {
			return nil, err
		}
		// Entered as paid: the ledger records the payment that settles it.
		if err := s.ledger.ChargeEnteredPaid(ctx, db, c); err != nil {
			return nil, err
		}
		c.Status, c.PaidAmount = Paid, c.Amount
	case s.ledger != nil:
		if err := s.chargesCreated(ctx, db, prop.ID, []Charge{*c}); err != nil {
			return nil, err
		}
		if err := reread(ctx, db, c); err != nil {
			return nil, err
		}
	default:
		if err := s.bookCharges(ctx, db, []Charge{*c}); err != nil {
			return nil, err
		}
	}
	err = activity.Record(ctx, db, activity.Entry{
		Action: activity.Created, RecordType: "charge", RecordID: c.ID.String(), WorkspaceID: prop.WorkspaceID,
		Changes: activity.Diff(nil, chargeOut(c)),
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// RefreshResult counts what RefreshAll did; the three add up to the number
// of active automatic expenses.
type RefreshResult struct {
	Created int `json:"created"`
	Skipped int `json:"skipped"`
	Errors  int `json:"errors"`
}

// MaxCatchUp is how many periods one refresh-all?since= may bill per
// expense: since is at most MaxCatchUp-1 months before the current month.
const MaxCatchUp = 60

// sinceParam reads refresh-all's ?since=YYYY-MM: the zero date when absent,
// else the first day of that month, which must lie within the last
// MaxCatchUp months (the handler compares it with the clock's month).
func sinceParam(raw string) (period.Date, error) {
	if raw == "" {
		return period.Date{}, nil
	}
	t, err := time.Parse("2006-01", raw)
	if err != nil || len(raw) != 7 {
		return period.Date{}, fault.Validation("since: must be a month, YYYY-MM")
	}
	return period.DateOf(t), nil
}

// RefreshAll gives every active automatic expense of prop its charge for
// the current period of its type (UTC), due on its due_day of the period's
// first month; with since (not zero) also every earlier period from the one
// holding since (not before the expense's start) that has none: the
// catch-up of missed periods. A period that has its charge is skipped; an
// expense with no period in range counts once as skipped; one that fails is
// counted in Errors and the rest go on. The unique key on (origin, period)
// makes concurrent calls create each charge once. The inserts and the
// ledger's use of the property's credit on the new charges are one
// transaction, under the property's lock.
func (s *Service) RefreshAll(ctx context.Context, prop *properties.Property, since period.Date) (RefreshResult, error) {
	var res RefreshResult
	now := s.now()
	if !since.IsZero() {
		cur, _ := period.PeriodOf(period.Month, now)
		earliest := period.DateOf(cur.First.Time().AddDate(0, -(MaxCatchUp - 1), 0))
		switch {
		case since.After(cur.First):
			return res, fault.Validation("since: must not be after the current month " + period.MonthLabel(cur.First))
		case since.Before(earliest):
			return res, fault.Validation(fmt.Sprintf("since: at most %d months back, %s or later", MaxCatchUp, period.MonthLabel(earliest)))
		}
	}
	list, err := s.store.ActiveAutomatic(ctx, prop.ID)
	if err != nil {
		return res, err
	}
	return s.generate(ctx, prop, list, func(*Expense) period.Date { return since }, period.DateOf(now), now)
}

// generate gives each expense of list (prop's active automatic ones) its
// charges from the period holding sinceOf(e) (zero: the current period
// only) to the one holding today, skipping the periods that have theirs:
// the work of RefreshAll and of the periodic billing (Bill). now stamps
// the charges made.
func (s *Service) generate(ctx context.Context, prop *properties.Property, list []Expense, sinceOf func(*Expense) period.Date, today period.Date, now time.Time) (RefreshResult, error) {
	var res RefreshResult
	var due []Charge
	for i := range list {
		e := &list[i]
		cs, err := chargesFor(e, sinceOf(e), today, now)
		switch {
		case err != nil:
			res.Errors++
			s.log.Warn("refresh-all: expense skipped with an error", "expense_id", e.ID, "error", err)
		case len(cs) == 0:
			res.Skipped++
		default:
			due = append(due, cs...)
		}
	}
	taken, err := s.store.existing(ctx, due)
	if err != nil {
		return RefreshResult{}, err
	}
	missing := due[:0:0]
	for _, c := range due {
		if taken[chargeKey{c.Origin, c.Period}] {
			res.Skipped++
			continue
		}
		missing = append(missing, c)
	}
	due = missing
	if len(due) == 0 {
		return res, nil
	}
	var inserted, failed []Charge
	err = database.RunInTx(ctx, s.store.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		inserted, failed, err = s.store.InsertChargesOnce(ctx, tx, due)
		if err != nil {
			return err
		}
		if err := s.chargesCreated(ctx, tx, prop.ID, inserted); err != nil {
			return err
		}
		if len(inserted) == 0 {
			return nil
		}
		// One line for the run, on the property: a catch-up can make
		// hundreds of charges, each of which is in the charge list anyway.
		return activity.Record(ctx, tx, activity.Entry{
			Action: "charges_generated", RecordType: "property", RecordID: prop.ID.String(), WorkspaceID: prop.WorkspaceID,
			Changes: map[string]activity.Change{"charges_created": {nil, len(inserted)}},
		})
	})
	if err != nil {
		return RefreshResult{}, err
	}
	for _, c := range failed {
		s.log.Warn("refresh-all: charge could not be stored", "expense_id", c.Origin, "period", c.Period)
	}
	res.Created = len(inserted)
	res.Errors += len(failed)
	res.Skipped += len(due) - len(inserted) - len(failed)
	s.met.ChargesGenerated(len(inserted))
	return res, nil
}

// chargesFor returns e's charges for the period containing now and, when
// since is not zero, for every earlier period from the one holding since,
// keeping those within e's start..end.
func chargesFor(e *Expense, since, today period.Date, now time.Time) ([]Charge, error) {
	sp, ok := span(e.Type)
	if !ok {
		return nil, fmt.Errorf("expense type %q has no period", e.Type)
	}
	last, err := period.PeriodOf(sp, today.Time())
	if err != nil {
		return nil, err
	}
	from := last
	if !since.IsZero() {
		if from, err = period.PeriodOf(sp, since.Time()); err != nil {
			return nil, err
		}
	}
	var out []Charge
	for p := from; !p.First.After(last.First); {
		c, ok, err := chargeIn(e, p, now)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, c)
		}
		if p, err = period.PeriodOf(sp, p.Last.AddDays(1).Time()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// chargeIn returns e's charge for the period p, or false when p lies
// outside e's start..end.
func chargeIn(e *Expense, p period.Period, now time.Time) (Charge, bool, error) {
	if !p.Overlaps(e.StartDate, e.EndDate) {
		return Charge{}, false, nil
	}
	if e.DueDay < 1 || e.DueDay > 28 {
		return Charge{}, false, fmt.Errorf("due_day %d out of 1..28", e.DueDay)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Charge{}, false, fmt.Errorf("charge id: %w", err)
	}
	expenseID := e.ID
	return Charge{
		ID: id, PropertyID: e.PropertyID, ExpenseID: &expenseID, Origin: e.ID, Name: e.Name, NameKind: e.NameKind, NameArgs: e.NameArgs,
		Amount: e.Amount, Currency: e.Currency, Period: p.Label, DueDate: p.DueDate(e.DueDay),
		Status: Unpaid, ContractID: e.ContractID, Kind: Regular, CreatedAt: now,
	}, true, nil
}
