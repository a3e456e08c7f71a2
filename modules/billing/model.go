package billing

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/money"
)

// The plans.
const (
	PlanFree = "free"
	PlanPro  = "pro"
)

// The states of a subscription: a new workspace tries pro (trialing); at
// the trial's end it is active on pro (with a payment method) or on free;
// an invoice whose payment failed makes it past_due until every invoice is
// paid; canceled stops the invoices (the workspace keeps the free plan's
// limits).
const (
	Trialing = "trialing"
	Active   = "active"
	PastDue  = "past_due"
	Canceled = "canceled"
)

// The states of an invoice.
const (
	InvoiceOpen = "open"
	InvoicePaid = "paid"
)

// Subscription is a row of billing_subscriptions.
type Subscription struct {
	bun.BaseModel `bun:"table:billing_subscriptions"`

	WorkspaceID int64     `bun:"workspace_id,pk"`
	Plan        string    `bun:"plan,notnull"`
	Status      string    `bun:"status,notnull"`
	TrialEndsAt time.Time `bun:"trial_ends_at,notnull"`
	// BilledFrom is when pro started to be paid for (the trial's end or
	// the upgrade); nil on free.
	BilledFrom      *time.Time `bun:"billed_from"`
	Country         *string    `bun:"country"`
	VATID           *string    `bun:"vat_id"`
	Company         *string    `bun:"company"`
	CustomerID      *string    `bun:"customer_id"`
	PaymentMethodID *string    `bun:"payment_method_id"`
	Card            *string    `bun:"card"`
	PastDueSince    *time.Time `bun:"past_due_since"`
	ReadOnly        bool       `bun:"read_only,notnull"`
	CanceledAt      *time.Time `bun:"canceled_at"`
	CreatedAt       time.Time  `bun:"created_at,notnull"`
	UpdatedAt       time.Time  `bun:"updated_at,notnull"`
}

// Invoice is a row of billing_invoices.
type Invoice struct {
	bun.BaseModel `bun:"table:billing_invoices"`

	ID            uuid.UUID    `bun:"id,pk"`
	WorkspaceID   int64        `bun:"workspace_id,notnull"`
	Number        string       `bun:"number,notnull"`
	Issuer        string       `bun:"issuer,notnull"`
	Year          int          `bun:"year,notnull"`
	Seq           int          `bun:"seq,notnull"`
	Period        string       `bun:"period,notnull"`
	Status        string       `bun:"status,notnull"`
	Currency      string       `bun:"currency,notnull"`
	Net           money.Amount `bun:"net,notnull"`
	Credit        money.Amount `bun:"credit,notnull"`
	VATRate       string       `bun:"vat_rate,notnull"`
	VAT           money.Amount `bun:"vat,notnull"`
	Total         money.Amount `bun:"total,notnull"`
	Country       string       `bun:"country,notnull"`
	VATID         *string      `bun:"vat_id"`
	ReverseCharge bool         `bun:"reverse_charge,notnull"`
	Customer      string       `bun:"customer,notnull"`
	PaymentIntent *string      `bun:"payment_intent"`
	LastEvent     int64        `bun:"last_event,notnull"`
	Failures      int          `bun:"failures,notnull"`
	Reminders     int          `bun:"reminders,notnull"`
	IssuedAt      time.Time    `bun:"issued_at,notnull"`
	PaidAt        *time.Time   `bun:"paid_at"`

	Lines []Line `bun:"-"`
}

// Line is a row of billing_invoice_lines: one unit-month, or a credit
// (negative).
type Line struct {
	bun.BaseModel `bun:"table:billing_invoice_lines"`

	ID          int64        `bun:"id,pk,autoincrement"`
	InvoiceID   uuid.UUID    `bun:"invoice_id,notnull"`
	Position    int          `bun:"position,notnull"`
	Description string       `bun:"description,notnull"`
	Period      string       `bun:"period,notnull"`
	Quantity    int          `bun:"quantity,notnull"`
	UnitPrice   money.Amount `bun:"unit_price,notnull"`
	Amount      money.Amount `bun:"amount,notnull"`
}

// credit is a row of billing_credits: an amount the workspace's next
// invoice takes off (a partner's reward).
type credit struct {
	bun.BaseModel `bun:"table:billing_credits"`

	ID          uuid.UUID    `bun:"id,pk"`
	WorkspaceID int64        `bun:"workspace_id,notnull"`
	Amount      money.Amount `bun:"amount,notnull"`
	Reason      string       `bun:"reason,notnull"`
	Source      string       `bun:"source,notnull"`
	InvoiceID   *uuid.UUID   `bun:"invoice_id"`
	CreatedAt   time.Time    `bun:"created_at,notnull"`
}

// event is a row of billing_events: a Stripe event applied.
type event struct {
	bun.BaseModel `bun:"table:billing_events"`

	EventID    string    `bun:"event_id,pk"`
	Type       string    `bun:"type,notnull"`
	ReceivedAt time.Time `bun:"received_at,notnull"`
}
