package expenses

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/metrics"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Service holds the rules of expenses and charges. Every method takes a
// property the caller got from properties.Service.Authorize.
type Service struct {
	store *Store
	clock clock.Clock
	log   *slog.Logger
	// met counts generated charges; nil when metrics are off.
	met *metrics.Metrics
	// ledger is the payments module; nil when it is switched off.
	ledger Ledger
	// namer renders generated names; nil without the printforms module.
	namer    Namer
	accounts *accounts.Service
	// journal books every charge made and cancelled (the ledger module).
	journal *journal.Journal
	batch   batchKnobs
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	Store   *Store
	Clock   clock.Clock
	Log     *slog.Logger
	Metrics *metrics.Metrics `optional:"true"`
	Ledger  Ledger           `optional:"true"`
	Namer   Namer            `optional:"true"`
	// Accounts gives the caller's profile locale.
	Accounts *accounts.Service `optional:"true"`
	Journal  *journal.Journal  `optional:"true"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{store: p.Store, clock: p.Clock, log: p.Log, met: p.Metrics, ledger: p.Ledger, namer: p.Namer, accounts: p.Accounts, journal: p.Journal}
}

// ExpenseInput carries an expense's fields as the handler checked them. A
// nil field is left as it is by Update; Create needs Name, Type, Amount and
// StartDate.
type ExpenseInput struct {
	Name *string
	// Generated, when set, names the expense by kind (the contracts
	// module's rent and prepayment); Name is then ignored.
	Generated *chargename.Name
	Type      *string
	Amount    *money.Amount
	Currency  *string
	IsActive  *bool
	StartDate *period.Date
	// EndDate, when SetEndDate, replaces the end; a zero date clears it.
	EndDate    period.Date
	SetEndDate bool
	DueDay     *int
}

func errNoExpense() error { return fault.NotFound("Expense not found.") }

// Expense returns the expense with the raw id under prop: 404 when the id
// is not a UUID, unknown, deleted or under another property.
func (s *Service) Expense(ctx context.Context, prop *properties.Property, rawID string) (*Expense, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNoExpense()
	}
	e, err := s.store.Expense(ctx, prop.ID, id)
	if errors.Is(err, ErrNotFound) {
		return nil, errNoExpense()
	}
	return e, err
}

// Expenses returns a page of prop's expenses.
func (s *Service) Expenses(ctx context.Context, prop *properties.Property, q listing.Query) ([]Expense, listing.Result, error) {
	return s.store.Expenses(ctx, prop.ID, q)
}

// CreateExpense adds an expense to prop. The currency defaults to the
// property's, due_day to 1, is_active to true.
func (s *Service) CreateExpense(ctx context.Context, prop *properties.Property, in ExpenseInput) (*Expense, error) {
	var e *Expense
	err := database.RunInTx(ctx, s.store.db, func(ctx context.Context, tx bun.Tx) error {
		var err error
		e, err = s.createExpense(ctx, tx, prop, in, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// CreateExpenseTx adds an expense to prop inside db (normally the caller's
// transaction) under the same rules as CreateExpense, linked to the
// contract contractID. The contracts module calls it when it activates a
// contract; prop is the property the caller already authorized.
func (s *Service) CreateExpenseTx(ctx context.Context, db bun.IDB, prop *properties.Property, in ExpenseInput, contractID uuid.UUID) (*Expense, error) {
	return s.createExpense(ctx, db, prop, in, &contractID)
}

func (s *Service) createExpense(ctx context.Context, db bun.IDB, prop *properties.Property, in ExpenseInput, contractID *uuid.UUID) (*Expense, error) {
	missing := required(field{"name", in.Name != nil || in.Generated != nil}, field{"type", in.Type != nil},
		field{"amount", in.Amount != nil}, field{"start_date", in.StartDate != nil})
	if len(missing) > 0 {
		return nil, fault.Validation(missing...)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("expense id: %w", err)
	}
	now := s.now()
	e := &Expense{ID: id, PropertyID: prop.ID, Currency: prop.Currency, IsActive: true, DueDay: 1,
		ContractID: contractID, CreatedAt: now, UpdatedAt: now}
	if err := apply(e, in); err != nil {
		return nil, err
	}
	if err := s.store.InsertExpense(ctx, db, e); err != nil {
		return nil, err
	}
	if err := recordExpense(ctx, db, activity.Created, prop, e, nil, expenseOut(e)); err != nil {
		return nil, err
	}
	return e, nil
}

// recordExpense logs a write of the expense e of prop, through db.
func recordExpense(ctx context.Context, db bun.IDB, action string, prop *properties.Property, e *Expense, before, after any) error {
	return activity.Record(ctx, db, activity.Entry{
		Action: action, RecordType: "expense", RecordID: e.ID.String(), WorkspaceID: prop.WorkspaceID,
		Changes: activity.Diff(before, after),
	})
}

// EndContractExpensesTx ends, inside db, every expense of the contract on
// the day end: an expense running past end (or open-ended) gets end_date =
// end, one that starts after end is deactivated. Charges already made stay;
// refresh-all makes none for a period that starts after end. It returns how
// many expenses it changed.
func (s *Service) EndContractExpensesTx(ctx context.Context, db bun.IDB, contractID uuid.UUID, end period.Date) (int, error) {
	return s.store.EndContractExpenses(ctx, db, contractID, end, s.now())
}

// UpdateExpense changes the given fields of the expense with the raw id.
// Charges it already generated keep their amounts.
func (s *Service) UpdateExpense(ctx context.Context, prop *properties.Property, rawID string, in ExpenseInput) (*Expense, error) {
	e, err := s.Expense(ctx, prop, rawID)
	if err != nil {
		return nil, err
	}
	if e.ContractID != nil {
		return nil, errContractExpense()
	}
	before := *e
	if err := apply(e, in); err != nil {
		return nil, err
	}
	if *e == before {
		return e, nil
	}
	e.UpdatedAt = s.now()
	err = database.RunInTx(ctx, s.store.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.UpdateExpense(ctx, tx, e); err != nil {
			return err
		}
		return recordExpense(ctx, tx, activity.Updated, prop, e, expenseOut(&before), expenseOut(e))
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// DeleteExpense hides the expense with the raw id; its charges stay.
func (s *Service) DeleteExpense(ctx context.Context, prop *properties.Property, rawID string) error {
	e, err := s.Expense(ctx, prop, rawID)
	if err != nil {
		return err
	}
	if e.ContractID != nil {
		return errContractExpense()
	}
	return database.RunInTx(ctx, s.store.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.SoftDeleteExpense(ctx, tx, e.ID, s.now()); err != nil {
			return err
		}
		return recordExpense(ctx, tx, activity.Deleted, prop, e, expenseOut(e), nil)
	})
}

// errContractExpense refuses a direct change of an expense a contract
// made: its amount and dates follow the contract (indexation through
// POST /contracts/{id}/rent, the end through terminate), and changing them
// here would let the two disagree.
func errContractExpense() error {
	return fault.Conflict("contract_expense",
		"A contract made this expense; change it through the contract (rent indexation, termination).")
}

// apply copies in onto e and checks the rules that span fields.
func apply(e *Expense, in ExpenseInput) error {
	var details []string
	switch {
	case in.Generated != nil:
		setName(&e.Name, &e.NameKind, &e.NameArgs, *in.Generated)
	case in.Name != nil && (*in.Name != e.Name || e.NameKind == ""):
		// A name a person types is theirs, in the words they chose.
		e.Name, e.NameKind, e.NameArgs = *in.Name, chargename.Custom, ""
	}
	if in.Type != nil {
		e.Type = *in.Type
	}
	if in.Amount != nil {
		e.Amount = *in.Amount
	}
	if in.Currency != nil {
		code, err := properties.CurrencyCode(*in.Currency)
		if err != nil {
			details = append(details, "currency: "+err.Error())
		}
		e.Currency = code
	}
	if in.IsActive != nil {
		e.IsActive = *in.IsActive
	}
	if in.StartDate != nil {
		e.StartDate = *in.StartDate
	}
	if in.SetEndDate {
		e.EndDate = in.EndDate
	}
	if in.DueDay != nil {
		e.DueDay = *in.DueDay
	}
	if !e.EndDate.IsZero() && e.EndDate.Before(e.StartDate) {
		details = append(details, fmt.Sprintf("end_date: must not be before start_date (%s)", e.StartDate))
	}
	if len(details) > 0 {
		return fault.Validation(details...)
	}
	return nil
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time {
	return s.clock.Now().UTC().Truncate(time.Microsecond)
}

// field is a request field and whether the client gave it.
type field struct {
	name  string
	given bool
}

// required words one "<name>: is required" per field not given, in order.
func required(fields ...field) []string {
	var out []string
	for _, f := range fields {
		if !f.given {
			out = append(out, f.name+": is required")
		}
	}
	return out
}

// EndExpenseTx sets, inside db, the end date of the expense id (the caller
// checked the expense is its own and end is not before its start).
func (s *Service) EndExpenseTx(ctx context.Context, db bun.IDB, id uuid.UUID, end period.Date) error {
	return s.store.EndExpense(ctx, db, id, end, s.now())
}

// LastBilledPeriodTx returns the latest period (label, e.g. 2026-11) the
// expense id has a charge for, read inside db; "" when none.
func (s *Service) LastBilledPeriodTx(ctx context.Context, db bun.IDB, id uuid.UUID) (string, error) {
	return s.store.LastPeriod(ctx, db, id)
}
