package payments

import (
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Received is what payments gave a charge on one day they were paid.
type Received struct {
	PaidOn period.Date  `bun:"paid_on"`
	Amount money.Amount `bun:"amount"`
}
