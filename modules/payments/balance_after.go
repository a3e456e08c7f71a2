package payments

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/money"
)

// BalanceAfter is what was still owed right after p was posted: on p's
// contract when p names one, else on p's property. It is rebuilt from the
// ledger's history, so later payments, reversals, cancellations and
// charges do not change it (a receipt says what was true when it was
// issued):
//
//   - the charges made at or before p's posting time and not cancelled by
//     then, at their amounts,
//   - less the allocations to them that existed right after p: p's own
//     (even when p was reversed since), and those of other payments made
//     at or before that time and not voided by then.
//
// Payments of one property are posted one after the other (the
// property's lock), and each takes its time after the lock, so "at or
// before p's time" is "before or with p". The credit p kept for later
// charges is not subtracted: it is the receipt's own line (credit).
func (s *Service) BalanceAfter(ctx context.Context, p *Payment) (money.Amount, error) {
	return balanceAfter(ctx, s.db, p)
}

func balanceAfter(ctx context.Context, db bun.IDB, p *Payment) (money.Amount, error) {
	at := p.CreatedAt
	charges := expenses.ChargesAtQuery(db, p.PropertyID, p.ContractID, at)
	// A join with the charges as they stood (not IN over them): SQLite
	// read 5,000 allocations against 10,000 charges in 12 ms joined, 60 ms
	// with IN.
	paid := db.NewSelect().TableExpr("payment_allocations AS a").
		ColumnExpr("CAST(COALESCE(SUM(a.amount_minor), 0) AS BIGINT)").
		Join("JOIN (?) AS ch ON ch.id = a.charge_id", charges).
		Where("a.property_id = ?", p.PropertyID).
		Where("(a.created_at <= ? OR a.payment_id = ?)", at, p.ID).
		Where("(a.voided_at IS NULL OR a.voided_at > ? OR a.payment_id = ?)", at, p.ID)
	var charged, allocated int64
	err := database.Query(ctx, db, db.NewSelect().
		ColumnExpr("(SELECT CAST(COALESCE(SUM(c.amount_minor), 0) AS BIGINT) FROM (?) AS c)", charges).
		ColumnExpr("(?)", paid),
		&charged, &allocated)
	if err != nil {
		return 0, fmt.Errorf("balance after payment: %w", err)
	}
	return money.Amount(charged - allocated), nil
}
