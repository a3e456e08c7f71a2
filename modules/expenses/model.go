package expenses

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The expense types. Every type but Manual is automatic: refresh-all
// generates its charges.
const (
	Manual    = "MANUAL"
	Monthly   = "MONTHLY"
	Quarterly = "QUARTERLY"
	Yearly    = "YEARLY"
)

// The charge statuses. The status column stores Unpaid, Paid or
// Cancelled; PartiallyPaid is an unpaid charge that money was allocated to
// (see Charge.State), which is how clients see and filter it.
const (
	Unpaid        = "unpaid"
	PartiallyPaid = "partially_paid"
	Paid          = "paid"
	Cancelled     = "cancelled"
)

// Statuses are the charge statuses clients see, in lifecycle order.
var Statuses = []string{Unpaid, PartiallyPaid, Paid, Cancelled}

// The charge kinds.
const (
	Regular = "regular"
	// Penalty is a late fee for the charge PenaltyFor (modules/penalties).
	Penalty = "penalty"
	// Fine is a contractual fine for a breach of the contract
	// (modules/violations); late fees are never added to it.
	Fine = "fine"
)

// Expense is a row of expenses.
type Expense struct {
	bun.BaseModel `bun:"table:expenses"`

	ID         uuid.UUID `bun:"id,pk"`
	PropertyID uuid.UUID `bun:"property_id,notnull"`
	Name       string    `bun:"name,notnull"`
	// NameKind and NameArgs are what a generated name is made of
	// (chargename); Name keeps its English wording. Custom: Name as typed.
	NameKind  string       `bun:"name_kind,notnull"`
	NameArgs  string       `bun:"name_args,notnull"`
	Type      string       `bun:"type,notnull"`
	Amount    money.Amount `bun:"amount_minor,notnull"`
	Currency  string       `bun:"currency,notnull"`
	IsActive  bool         `bun:"is_active,notnull"`
	StartDate period.Date  `bun:"start_date,notnull"`
	// EndDate is zero when the expense has no end.
	EndDate period.Date `bun:"end_date,nullzero"`
	DueDay  int         `bun:"due_day,notnull"`
	// ContractID is the contract that made the expense (modules/contracts).
	ContractID *uuid.UUID `bun:"contract_id"`
	CreatedAt  time.Time  `bun:"created_at,notnull"`
	UpdatedAt  time.Time  `bun:"updated_at,notnull"`
	DeletedAt  *time.Time `bun:"deleted_at"`
}

// span is the billing span of an automatic type.
func span(expenseType string) (period.Span, bool) {
	switch expenseType {
	case Monthly:
		return period.Month, true
	case Quarterly:
		return period.Quarter, true
	case Yearly:
		return period.Year, true
	}
	return 0, false
}

// Charge is a row of charges.
type Charge struct {
	bun.BaseModel `bun:"table:charges"`

	ID         uuid.UUID  `bun:"id,pk"`
	PropertyID uuid.UUID  `bun:"property_id,notnull"`
	ExpenseID  *uuid.UUID `bun:"expense_id"`
	Origin     uuid.UUID  `bun:"origin,notnull"`
	Name       string     `bun:"name,notnull"`
	// NameKind and NameArgs: as on Expense.
	NameKind string       `bun:"name_kind,notnull"`
	NameArgs string       `bun:"name_args,notnull"`
	Amount   money.Amount `bun:"amount_minor,notnull"`
	Currency string       `bun:"currency,notnull"`
	Period   string       `bun:"period,notnull"`
	DueDate  period.Date  `bun:"due_date,notnull"`
	Status   string       `bun:"status,notnull"`
	// ContractID is the contract the charge belongs to (modules/contracts).
	ContractID *uuid.UUID `bun:"contract_id"`
	// PaidAmount is what payments allocated to the charge (modules/payments).
	PaidAmount money.Amount `bun:"paid_amount_minor,notnull"`
	Kind       string       `bun:"kind,notnull"`
	PenaltyFor *uuid.UUID   `bun:"penalty_for"`
	CreatedAt  time.Time    `bun:"created_at,notnull"`
}

// State is the status a client sees: partially_paid for an unpaid charge
// with money allocated.
func (c *Charge) State() string {
	if c.Status == Unpaid && c.PaidAmount > 0 {
		return PartiallyPaid
	}
	return c.Status
}

// Outstanding is what is still owed on the charge: 0 once paid or
// cancelled.
func (c *Charge) Outstanding() money.Amount {
	if c.Status == Cancelled {
		return 0
	}
	return c.Amount - c.PaidAmount
}

// GeneratedName is what e's name is made of.
func (e *Expense) GeneratedName() chargename.Name {
	return chargename.Of(e.NameKind, e.NameArgs, e.Name)
}

// GeneratedName is what c's name is made of.
func (c *Charge) GeneratedName() chargename.Name {
	return chargename.Of(c.NameKind, c.NameArgs, c.Name)
}

// setName gives a row the name n: its English wording, kind and args.
func setName(name, kind, args *string, n chargename.Name) {
	*name = n.English()
	*kind, *args = n.Stored()
}
