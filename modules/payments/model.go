package payments

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The payment statuses.
const (
	Posted   = "posted"
	Reversed = "reversed"
)

// SetOff is the method of a payment that is no money received: a claim of
// the tenant's (a credited compensation, the deposit applied at a
// settlement) set off against what the tenant owes. Its receipt is a
// set-off statement and its notice never thanks for a payment.
const SetOff = "set_off"

// Methods are the ways a payment can be made.
var Methods = []string{"bank_transfer", "cash", "card", "cheque", "direct_debit", SetOff, "other"}

// Payment is a row of payments.
type Payment struct {
	bun.BaseModel `bun:"table:payments"`

	ID             uuid.UUID    `bun:"id,pk"`
	PropertyID     uuid.UUID    `bun:"property_id,notnull"`
	OwnerID        int64        `bun:"owner_id,notnull"`
	ContractID     *uuid.UUID   `bun:"contract_id"`
	PayerID        *uuid.UUID   `bun:"payer_id"`
	Amount         money.Amount `bun:"amount_minor,notnull"`
	Currency       string       `bun:"currency,notnull"`
	PaidOn         period.Date  `bun:"paid_on,notnull"`
	Method         string       `bun:"method,notnull"`
	Reference      string       `bun:"reference,notnull"`
	Status         string       `bun:"status,notnull"`
	Unallocated    money.Amount `bun:"unallocated_minor,notnull"`
	CreatedBy      int64        `bun:"created_by,notnull"`
	CreatedAt      time.Time    `bun:"created_at,notnull"`
	UpdatedAt      time.Time    `bun:"updated_at,notnull"`
	ReversedAt     *time.Time   `bun:"reversed_at"`
	ReversedBy     *int64       `bun:"reversed_by"`
	ReversalReason *string      `bun:"reversal_reason"`

	// Allocations are the payment's live allocations (none once reversed).
	Allocations []Allocation `bun:"-"`
}

// Allocation is a row of payment_allocations.
type Allocation struct {
	bun.BaseModel `bun:"table:payment_allocations"`

	PaymentID  uuid.UUID    `bun:"payment_id,pk"`
	ChargeID   uuid.UUID    `bun:"charge_id,pk"`
	PropertyID uuid.UUID    `bun:"property_id,notnull"`
	Amount     money.Amount `bun:"amount_minor,notnull"`
	CreatedAt  time.Time    `bun:"created_at,notnull"`
	VoidedAt   *time.Time   `bun:"voided_at"`
}
