package contracts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Rent is a row of contract_rents: the rent from a day on, and the expense
// that bills it.
type Rent struct {
	bun.BaseModel `bun:"table:contract_rents"`

	ID         uuid.UUID    `bun:"id,pk"`
	ContractID uuid.UUID    `bun:"contract_id,notnull"`
	From       period.Date  `bun:"from_date,notnull"`
	Amount     money.Amount `bun:"amount_minor,notnull"`
	ExpenseID  uuid.UUID    `bun:"expense_id,notnull"`
	CreatedAt  time.Time    `bun:"created_at,notnull"`
	// The index the change followed; empty for the rent at the start and
	// a change without one.
	IndexName      *string `bun:"index_name"`
	IndexOldPeriod *string `bun:"index_old_period"`
	IndexOldValue  *string `bun:"index_old_value"`
	IndexNewPeriod *string `bun:"index_new_period"`
	IndexNewValue  *string `bun:"index_new_value"`
}

// Index is the index the change followed, nil when none is recorded.
func (r *Rent) Index() *Index {
	if r.IndexName == nil || r.IndexOldPeriod == nil || r.IndexOldValue == nil || r.IndexNewPeriod == nil || r.IndexNewValue == nil {
		return nil
	}
	return &Index{Name: *r.IndexName, OldPeriod: *r.IndexOldPeriod, OldValue: *r.IndexOldValue, NewPeriod: *r.IndexNewPeriod, NewValue: *r.IndexNewValue}
}

// Rents returns the contract's rent history, oldest first.
func (s *Service) Rents(ctx context.Context, c *Contract) ([]Rent, error) {
	return s.store.Rents(ctx, s.db, c.ID)
}

// ChangeRent indexes the rent of the active contract c: from must be the
// first day of a month after the start, within the contract, and after the
// last period the current rent expense billed. In one transaction the
// current rent expense ends the day before from and a new one bills amount
// from from on; charges already made are never touched.
//
// ix is the index the change follows: where the law of the property's
// country requires one (platform/law: Germany § 557b BGB, France the IRL)
// a change without it is a 400, and a new rent above what the index's
// change allows a 422 rent_exceeds_index; nothing is changed either way.
func (s *Service) ChangeRent(ctx context.Context, p auth.Principal, c *Contract, amount money.Amount, from period.Date, ix *Index) (*Contract, error) {
	if c.StatusOn(s.today()) != Active {
		return nil, fault.Conflict("not_active", "Only an active contract's rent can change.")
	}
	if from.String()[8:] != "01" || !c.StartDate.Before(from) || (!c.EndDate.IsZero() && from.After(c.EndDate)) {
		return nil, fault.Validation("from: must be the first day of a month after the contract's start and within the contract")
	}
	prop, err := s.props.Authorize(ctx, p, c.PropertyID.String())
	if err != nil {
		return nil, err
	}
	if details := ix.check(law.Of(prop.CountryCode).Index); len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	now := s.now()
	var prior int64
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		// Indexations of one contract run one at a time (SQLite
		// transactions begin IMMEDIATE: writers already do).
		if _, err := properties.Lock(ctx, tx, c.PropertyID); err != nil {
			return err
		}
		cur, err := s.store.CurrentRent(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if !cur.From.Before(from) {
			return fault.Validation(fmt.Sprintf("from: must be after the current rent's start (%s)", cur.From))
		}
		if ix != nil {
			if limit := ix.cap(cur.Amount); amount > limit {
				return errAboveIndex(ix, cur.Amount, limit, c.Currency)
			}
		}
		last, err := s.expenses.LastBilledPeriodTx(ctx, tx, cur.ExpenseID)
		if err != nil {
			return err
		}
		if last != "" && last >= period.MonthLabel(from) {
			return fault.Conflict("already_billed", fmt.Sprintf("The rent is billed up to %s; choose a later month.", last))
		}
		changed, err := s.store.SetRent(ctx, tx, c.ID, amount, from, cur.Amount, now)
		if err != nil {
			return err
		}
		if !changed {
			return fault.Conflict("not_active", "Only an active contract's rent can change.")
		}
		if err := s.expenses.EndExpenseTx(ctx, tx, cur.ExpenseID, dayBefore(from)); err != nil {
			return err
		}
		e, err := s.rentExpense(ctx, tx, prop, c, amount, from)
		if err != nil {
			return err
		}
		if err := insertRent(ctx, tx, c.ID, e.ID, from, amount, now, ix); err != nil {
			return err
		}
		after := *c
		n := int64(amount)
		prior = int64(cur.Amount)
		after.RentMinor, after.RentFrom, after.PriorRentMinor, after.UpdatedAt = &n, from, &prior, now
		for _, l := range s.rentListeners {
			if err := l.RentChanged(ctx, tx, c, amount, from, ix); err != nil {
				return err
			}
		}
		return activity.Record(ctx, tx, activity.Entry{
			Action: "rent_changed", RecordType: "contract", RecordID: c.ID.String(), WorkspaceID: c.WorkspaceID,
			Changes: activity.Diff(s.view(c), s.view(&after)),
		})
	})
	if errors.Is(err, ErrNotFound) {
		return nil, errNotFound()
	}
	if err != nil {
		return nil, err
	}
	n := int64(amount)
	c.RentMinor, c.RentFrom, c.PriorRentMinor, c.UpdatedAt = &n, from, &prior, now
	return c, nil
}

// rentExpense creates, inside tx, the monthly rent expense of c from start.
func (s *Service) rentExpense(ctx context.Context, tx bun.IDB, prop *properties.Property, c *Contract, amount money.Amount, start period.Date) (*expenses.Expense, error) {
	name, monthly, due := rentName(c.Number), expenses.Monthly, c.DueDay
	in := expenses.ExpenseInput{Generated: &name, Type: &monthly, Amount: &amount, StartDate: &start, DueDay: &due}
	if !c.EndDate.IsZero() {
		in.SetEndDate, in.EndDate = true, c.EndDate
	}
	return s.expenses.CreateExpenseTx(ctx, tx, prop, in, c.ID)
}

// dayBefore is the day before d.
func dayBefore(d period.Date) period.Date {
	t, _ := time.Parse(time.DateOnly, d.String())
	return period.DateOf(t.AddDate(0, 0, -1))
}
