package payments

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/money"
)

// BalanceAfter is what was still owed at the end of p's paid_on day: on
// p's contract when p names one, else on p's property. It is the balance
// of that day as the ledger knows it now, whatever was keyed in later:
//
//   - the charges due on or before paid_on, at their amounts, less those
//     cancelled (a cancelled charge was never owed);
//   - less the payments paid on or before paid_on and not reversed (p
//     itself even when reversed since: its receipt is then void): a
//     payment naming the contract counts whole, its credit included; a
//     payment of the property that names no contract counts with what it
//     gave the contract's charges.
//
// So a charge billed in advance for a later month, or keyed in after the
// payment for a later due date, is not in it, and a receipt of a payment
// of 5 September states what was owed that evening. Never below zero:
// what was paid ahead is the receipt's credit, not a debt.
func (s *Service) BalanceAfter(ctx context.Context, p *Payment) (money.Amount, error) {
	return balanceAfter(ctx, s.db, p)
}

func balanceAfter(ctx context.Context, db bun.IDB, p *Payment) (money.Amount, error) {
	day := p.PaidOn
	charged := db.NewSelect().Model((*expenses.Charge)(nil)).
		ColumnExpr("CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT)").
		Where("property_id = ?", p.PropertyID).Where("due_date <= ?", day).Where("status <> ?", expenses.Cancelled)
	counted := func(q *bun.SelectQuery, alias string) *bun.SelectQuery {
		return q.Where(alias+".property_id = ?", p.PropertyID).Where(alias+".paid_on <= ?", day).
			Where("("+alias+".status <> ? OR "+alias+".id = ?)", Reversed, p.ID)
	}
	paid := counted(db.NewSelect().TableExpr("payments AS pay").ColumnExpr("CAST(COALESCE(SUM(pay.amount_minor), 0) AS BIGINT)"), "pay")
	// Given to the contract by payments of the property that name none.
	given := db.NewSelect().ColumnExpr("0")
	if p.ContractID != nil {
		charged = charged.Where("contract_id = ?", *p.ContractID)
		paid = paid.Where("pay.contract_id = ?", *p.ContractID)
		given = counted(db.NewSelect().TableExpr("payment_allocations AS a").
			ColumnExpr("CAST(COALESCE(SUM(a.amount_minor), 0) AS BIGINT)").
			Join("JOIN payments AS pay ON pay.id = a.payment_id").
			Join("JOIN charges AS ch ON ch.id = a.charge_id"), "pay").
			Where("a.property_id = ?", p.PropertyID).Where("a.voided_at IS NULL").
			Where("ch.contract_id = ?", *p.ContractID).Where("pay.contract_id IS NULL")
	}
	var owed, settled, other int64
	err := database.Query(ctx, db, db.NewSelect().ColumnExpr("(?)", charged).ColumnExpr("(?)", paid).ColumnExpr("(?)", given),
		&owed, &settled, &other)
	if err != nil {
		return 0, fmt.Errorf("balance after payment: %w", err)
	}
	return money.Amount(max(0, owed-settled-other)), nil
}

// SettlesMonth reports whether p paid the rent and charges of one month
// of its contract and left that month fully paid right after it: a French
// landlord owes a quittance de loyer for such a payment, and a mere reçu
// for any other (a part payment, the deposit, a payment spread over
// months; loi n° 89-462, art. 21). "The month's rent and charges" are the
// contract's charges of that period made by its expenses (rent,
// prepayments, other recurring charges); the deposit, late fees, fines
// and a payment without a contract never make a quittance.
func (s *Service) SettlesMonth(ctx context.Context, p *Payment) (bool, error) {
	if p.ContractID == nil {
		return false, nil
	}
	db := s.db
	var months, recurring, other int64
	var month string
	err := database.Query(ctx, db, db.NewSelect().TableExpr("payment_allocations AS a").
		Join("JOIN charges AS ch ON ch.id = a.charge_id").
		ColumnExpr("COUNT(DISTINCT ch.period), COALESCE(MIN(ch.period), '')").
		ColumnExpr("COALESCE(MAX(CASE WHEN ch.expense_id IS NOT NULL AND ch.kind = ? THEN 1 ELSE 0 END), 0)", expenses.Regular).
		ColumnExpr("COALESCE(MAX(CASE WHEN ch.expense_id IS NULL OR ch.kind <> ? THEN 1 ELSE 0 END), 0)", expenses.Regular).
		Where("a.payment_id = ?", p.ID).Where("a.property_id = ?", p.PropertyID),
		&months, &month, &recurring, &other)
	if err != nil {
		return false, fmt.Errorf("month of payment: %w", err)
	}
	if months != 1 || recurring != 1 || other != 0 {
		return false, nil
	}
	// Right after p: the month's recurring charges less what payments up
	// to p had given them.
	var left int64
	err = database.Query(ctx, db, db.NewSelect().TableExpr("charges AS ch").
		ColumnExpr("CAST(COALESCE(SUM(ch.amount_minor - (SELECT COALESCE(SUM(a.amount_minor), 0) FROM payment_allocations AS a "+
			"WHERE a.charge_id = ch.id AND (a.created_at <= ? OR a.payment_id = ?) AND (a.voided_at IS NULL OR a.voided_at > ? OR a.payment_id = ?))), 0) AS BIGINT)",
			p.CreatedAt, p.ID, p.CreatedAt, p.ID).
		Where("ch.property_id = ?", p.PropertyID).Where("ch.contract_id = ?", *p.ContractID).
		Where("ch.period = ?", month).Where("ch.kind = ?", expenses.Regular).
		Where("ch.expense_id IS NOT NULL").Where("ch.status <> ?", expenses.Cancelled), &left)
	if err != nil {
		return false, fmt.Errorf("month of payment: %w", err)
	}
	return left <= 0, nil
}

// LinesOf is what the payment with id gave each charge (not voided), in
// the order the charges fell due: what a statement itemises.
func (s *Service) LinesOf(ctx context.Context, id uuid.UUID) ([]Line, error) {
	var out []Line
	err := database.Query(ctx, s.db, s.db.NewSelect().TableExpr("payment_allocations AS a").
		Join("JOIN charges AS ch ON ch.id = a.charge_id").
		ColumnExpr("ch.name AS charge_name, ch.period, ch.due_date, a.amount_minor AS amount").
		Where("a.payment_id = ?", id).Where("a.voided_at IS NULL").
		OrderExpr("ch.due_date, ch.created_at, ch.id"), &out)
	if err != nil {
		return nil, fmt.Errorf("lines of payment: %w", err)
	}
	return out, nil
}

// Read is the payment with id, read through db (a caller's transaction or
// the pool): for a module that holds a payment's id from an event.
func (s *Service) Read(ctx context.Context, db bun.IDB, id uuid.UUID) (*Payment, error) {
	return s.store.Read(ctx, db, id)
}
