package payments

import (
	"context"

	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Listener is a module that keeps records of payments (modules/receipts
// issues a receipt for each). It is called inside the transaction that
// posts or reverses the payment, so both commit together or not at all.
type Listener interface {
	PaymentPosted(ctx context.Context, tx bun.IDB, p PostedPayment) error
	PaymentReversed(ctx context.Context, tx bun.IDB, p *Payment) error
}

// ProvideListener registers a constructor of a Listener with fx.
func ProvideListener(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(Listener)), fx.ResultTags(`group:"payment_listeners"`)))
}

// PostedPayment is a payment just posted, with what a receipt shows.
type PostedPayment struct {
	Payment *Payment
	// WorkspaceID is the workspace of the payment's property.
	WorkspaceID int64
	// PayerName is the payer contragent's name, "" when none is named.
	PayerName string
	// Lines are the charges the payment paid when it was posted.
	Lines []Line
}

// Line is what a payment gave one charge.
type Line struct {
	ChargeName string       `json:"charge_name"`
	Period     string       `json:"period"`
	DueDate    period.Date  `json:"due_date"`
	Amount     money.Amount `json:"amount"`
}
