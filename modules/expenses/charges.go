package expenses

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses/calendar"
	"github.com/propman/propman/modules/expenses/money"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/listing"
)

// ChargeInput carries a manual charge as the handler checked it. Period
// defaults to the month of DueDate, Currency to the property's, Status to
// unpaid.
type ChargeInput struct {
	Name     *string
	Amount   *money.Amount
	Currency *string
	Period   *string
	DueDate  *calendar.Date
	Status   *string
}

// Charges returns a page of prop's charges.
func (s *Service) Charges(ctx context.Context, prop *properties.Property, q listing.Query) ([]Charge, int, error) {
	return s.store.Charges(ctx, prop.ID, q)
}

// CreateCharge adds a manual charge (one no expense generated) to prop.
func (s *Service) CreateCharge(ctx context.Context, prop *properties.Property, in ChargeInput) (*Charge, error) {
	return s.createCharge(ctx, s.store.db, prop, in, nil)
}

// CreateChargeTx adds a manual charge to prop inside db (normally the
// caller's transaction) under the same rules as CreateCharge, linked to the
// contract contractID.
func (s *Service) CreateChargeTx(ctx context.Context, db bun.IDB, prop *properties.Property, in ChargeInput, contractID uuid.UUID) (*Charge, error) {
	return s.createCharge(ctx, db, prop, in, &contractID)
}

func (s *Service) createCharge(ctx context.Context, db bun.IDB, prop *properties.Property, in ChargeInput, contractID *uuid.UUID) (*Charge, error) {
	details := required(field{"name", in.Name != nil}, field{"amount", in.Amount != nil}, field{"due_date", in.DueDate != nil})
	cur := prop.Currency
	if in.Currency != nil {
		code, err := properties.CurrencyCode(*in.Currency)
		if err != nil {
			details = append(details, "currency: "+err.Error())
		}
		cur = code
	}
	if len(details) > 0 {
		return nil, apierror.Validation(details...)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("charge id: %w", err)
	}
	c := &Charge{
		ID: id, PropertyID: prop.ID, Origin: id, Name: *in.Name, Amount: *in.Amount, Currency: cur,
		Period: calendar.MonthLabel(*in.DueDate), DueDate: *in.DueDate, Status: Unpaid, ContractID: contractID,
		CreatedAt: s.now(),
	}
	if in.Period != nil {
		c.Period = *in.Period
	}
	if in.Status != nil {
		c.Status = *in.Status
	}
	if err := s.store.InsertCharge(ctx, db, c); err != nil {
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

// RefreshAll gives every active automatic expense of prop its charge for
// the current period of its type (UTC): due on its due_day of the period's
// first month. An expense whose charge exists, or whose start..end does not
// reach into the period, is skipped; one that fails is counted in Errors
// and the rest go on. The unique key on (origin, period) makes concurrent
// calls create each charge once.
func (s *Service) RefreshAll(ctx context.Context, prop *properties.Property) (RefreshResult, error) {
	var res RefreshResult
	list, err := s.store.ActiveAutomatic(ctx, prop.ID)
	if err != nil {
		return res, err
	}
	now := s.now()
	due := make([]Charge, 0, len(list))
	for i := range list {
		e := &list[i]
		c, ok, err := chargeFor(e, now)
		switch {
		case err != nil:
			res.Errors++
			s.log.Warn("refresh-all: expense skipped with an error", "expense_id", e.ID, "error", err)
		case !ok:
			res.Skipped++
		default:
			due = append(due, c)
		}
	}
	inserted, failed, err := s.store.InsertChargesOnce(ctx, due)
	if err != nil {
		return RefreshResult{}, err
	}
	for _, c := range failed {
		s.log.Warn("refresh-all: charge could not be stored", "expense_id", c.Origin, "period", c.Period)
	}
	res.Created = inserted
	res.Errors += len(failed)
	res.Skipped += len(due) - inserted - len(failed)
	s.met.ChargesGenerated(inserted)
	return res, nil
}

// chargeFor returns e's charge for the period containing now, or false
// when that period lies outside e's start..end.
func chargeFor(e *Expense, now time.Time) (Charge, bool, error) {
	sp, ok := span(e.Type)
	if !ok {
		return Charge{}, false, fmt.Errorf("expense type %q has no period", e.Type)
	}
	p, err := calendar.PeriodOf(sp, now)
	if err != nil {
		return Charge{}, false, err
	}
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
		ID: id, PropertyID: e.PropertyID, ExpenseID: &expenseID, Origin: e.ID, Name: e.Name,
		Amount: e.Amount, Currency: e.Currency, Period: p.Label, DueDate: p.DueDate(e.DueDay),
		Status: Unpaid, ContractID: e.ContractID, CreatedAt: now,
	}, true, nil
}
