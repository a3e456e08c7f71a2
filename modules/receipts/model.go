package receipts

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/money"
)

// The receipt statuses.
const (
	Issued = "issued"
	Void   = "void"
)

// Receipt is a row of receipts.
type Receipt struct {
	bun.BaseModel `bun:"table:receipts"`

	ID          uuid.UUID       `bun:"id,pk"`
	OwnerID     int64           `bun:"owner_id,notnull"`
	WorkspaceID int64           `bun:"workspace_id,notnull"`
	PropertyID  uuid.UUID       `bun:"property_id,notnull"`
	PaymentID   uuid.UUID       `bun:"payment_id,notnull"`
	Year        int             `bun:"year,notnull"`
	Seq         int             `bun:"seq,notnull"`
	Number      string          `bun:"number,notnull"`
	IssuedAt    time.Time       `bun:"issued_at,notnull"`
	Amount      money.Amount    `bun:"amount_minor,notnull"`
	Currency    string          `bun:"currency,notnull"`
	Payer       string          `bun:"payer,notnull"`
	Lines       []payments.Line `bun:"lines,type:json,notnull"`
	// Credit is what the payment kept for later charges when it was posted.
	Credit     money.Amount `bun:"credit_minor,notnull"`
	Status     string       `bun:"status,notnull"`
	VoidedAt   *time.Time   `bun:"voided_at"`
	VoidReason *string      `bun:"void_reason"`
	UpdatedAt  time.Time    `bun:"updated_at,notnull"`
}
