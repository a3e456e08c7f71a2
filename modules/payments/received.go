package payments

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Received is what payments gave a charge on one day they were paid.
type Received struct {
	PaidOn period.Date  `bun:"paid_on"`
	Amount money.Amount `bun:"amount"`
}

// ReceivedFor is, through db, what the payments of the charge with id gave
// it (allocations not voided), summed by the day paid, oldest first: when
// a deposit was received, for the interest it earned (modules/compensations).
func ReceivedFor(ctx context.Context, db bun.IDB, chargeID uuid.UUID) ([]Received, error) {
	var out []Received
	err := database.Query(ctx, db, db.NewSelect().TableExpr("payment_allocations AS a").
		Join("JOIN payments AS p ON p.id = a.payment_id").
		ColumnExpr("p.paid_on AS paid_on, CAST(SUM(a.amount_minor) AS BIGINT) AS amount").
		Where("a.charge_id = ?", chargeID).Where("a.voided_at IS NULL").
		GroupExpr("p.paid_on").OrderExpr("p.paid_on"), &out)
	if err != nil {
		return nil, fmt.Errorf("received for charge: %w", err)
	}
	return out, nil
}
