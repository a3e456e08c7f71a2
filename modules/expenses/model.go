package expenses

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses/calendar"
	"github.com/propman/propman/modules/expenses/money"
)

// The expense types. Every type but Manual is automatic: refresh-all
// generates its charges.
const (
	Manual    = "MANUAL"
	Monthly   = "MONTHLY"
	Quarterly = "QUARTERLY"
	Yearly    = "YEARLY"
)

// The charge statuses.
const (
	Unpaid    = "unpaid"
	Paid      = "paid"
	Cancelled = "cancelled"
)

// Expense is a row of expenses.
type Expense struct {
	bun.BaseModel `bun:"table:expenses"`

	ID         uuid.UUID     `bun:"id,pk"`
	PropertyID uuid.UUID     `bun:"property_id,notnull"`
	Name       string        `bun:"name,notnull"`
	Type       string        `bun:"type,notnull"`
	Amount     money.Amount  `bun:"amount_minor,notnull"`
	Currency   string        `bun:"currency,notnull"`
	IsActive   bool          `bun:"is_active,notnull"`
	StartDate  calendar.Date `bun:"start_date,notnull"`
	// EndDate is zero when the expense has no end.
	EndDate calendar.Date `bun:"end_date,nullzero"`
	DueDay  int           `bun:"due_day,notnull"`
	// ContractID is the contract that made the expense (modules/contracts).
	ContractID *uuid.UUID `bun:"contract_id"`
	CreatedAt  time.Time  `bun:"created_at,notnull"`
	UpdatedAt  time.Time  `bun:"updated_at,notnull"`
	DeletedAt  *time.Time `bun:"deleted_at"`
}

// span is the billing span of an automatic type.
func span(expenseType string) (calendar.Span, bool) {
	switch expenseType {
	case Monthly:
		return calendar.Month, true
	case Quarterly:
		return calendar.Quarter, true
	case Yearly:
		return calendar.Year, true
	}
	return 0, false
}

// Charge is a row of charges.
type Charge struct {
	bun.BaseModel `bun:"table:charges"`

	ID         uuid.UUID     `bun:"id,pk"`
	PropertyID uuid.UUID     `bun:"property_id,notnull"`
	ExpenseID  *uuid.UUID    `bun:"expense_id"`
	Origin     uuid.UUID     `bun:"origin,notnull"`
	Name       string        `bun:"name,notnull"`
	Amount     money.Amount  `bun:"amount_minor,notnull"`
	Currency   string        `bun:"currency,notnull"`
	Period     string        `bun:"period,notnull"`
	DueDate    calendar.Date `bun:"due_date,notnull"`
	Status     string        `bun:"status,notnull"`
	// ContractID is the contract the charge belongs to (modules/contracts).
	ContractID *uuid.UUID `bun:"contract_id"`
	CreatedAt  time.Time  `bun:"created_at,notnull"`
}
