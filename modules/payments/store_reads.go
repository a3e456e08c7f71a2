package payments

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/money"
)

// BalanceAfter is what was still owed at the end of p's paid_on day
// (Service.BalanceAfter says how), in one statement.
func (s *Store) BalanceAfter(ctx context.Context, db bun.IDB, p *Payment) (money.Amount, error) {
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

// Months is what MonthsOf reads of a payment's allocations.
type Months struct {
	// Months is the number of periods the payment gave charges of, Month
	// the first of them.
	Months int64
	Month  string
	// Recurring is 1 when it gave a regular charge of an expense, Other 1
	// when it gave any other charge.
	Recurring, Other int64
}

// MonthsOf reads which periods and kinds of charges p gave money to.
func (s *Store) MonthsOf(ctx context.Context, db bun.IDB, p *Payment) (Months, error) {
	var m Months
	err := database.Query(ctx, db, db.NewSelect().TableExpr("payment_allocations AS a").
		Join("JOIN charges AS ch ON ch.id = a.charge_id").
		ColumnExpr("COUNT(DISTINCT ch.period), COALESCE(MIN(ch.period), '')").
		ColumnExpr("COALESCE(MAX(CASE WHEN ch.expense_id IS NOT NULL AND ch.kind = ? THEN 1 ELSE 0 END), 0)", expenses.Regular).
		ColumnExpr("COALESCE(MAX(CASE WHEN ch.expense_id IS NULL OR ch.kind <> ? THEN 1 ELSE 0 END), 0)", expenses.Regular).
		Where("a.payment_id = ?", p.ID).Where("a.property_id = ?", p.PropertyID),
		&m.Months, &m.Month, &m.Recurring, &m.Other)
	if err != nil {
		return m, fmt.Errorf("month of payment: %w", err)
	}
	return m, nil
}

// LeftOfMonth is what the recurring charges of p's contract for month
// still owed right after p.
func (s *Store) LeftOfMonth(ctx context.Context, db bun.IDB, p *Payment, month string) (int64, error) {
	var left int64
	err := database.Query(ctx, db, db.NewSelect().TableExpr("charges AS ch").
		ColumnExpr("CAST(COALESCE(SUM(ch.amount_minor - (SELECT COALESCE(SUM(a.amount_minor), 0) FROM payment_allocations AS a "+
			"WHERE a.charge_id = ch.id AND (a.created_at <= ? OR a.payment_id = ?) AND (a.voided_at IS NULL OR a.voided_at > ? OR a.payment_id = ?))), 0) AS BIGINT)",
			p.CreatedAt, p.ID, p.CreatedAt, p.ID).
		Where("ch.property_id = ?", p.PropertyID).Where("ch.contract_id = ?", *p.ContractID).
		Where("ch.period = ?", month).Where("ch.kind = ?", expenses.Regular).
		Where("ch.expense_id IS NOT NULL").Where("ch.status <> ?", expenses.Cancelled), &left)
	if err != nil {
		return 0, fmt.Errorf("month of payment: %w", err)
	}
	return left, nil
}

// LinesOf is what the payment with id gave each charge (not voided), in
// the order the charges fell due.
func (s *Store) LinesOf(ctx context.Context, db bun.IDB, id uuid.UUID) ([]Line, error) {
	var out []Line
	err := database.Query(ctx, db, db.NewSelect().TableExpr("payment_allocations AS a").
		Join("JOIN charges AS ch ON ch.id = a.charge_id").
		ColumnExpr("ch.name AS charge_name, ch.period, ch.due_date, a.amount_minor AS amount").
		Where("a.payment_id = ?", id).Where("a.voided_at IS NULL").
		OrderExpr("ch.due_date, ch.created_at, ch.id"), &out)
	if err != nil {
		return nil, fmt.Errorf("lines of payment: %w", err)
	}
	return out, nil
}

// orderMarked returns, through db, the ids of the contract's unpaid
// charges the allocation order (RentFirst or DepositLast) sets apart: its
// rent charges, or its one-off charges.
func orderMarked(ctx context.Context, db bun.IDB, id uuid.UUID, order string) ([]uuid.UUID, error) {
	q := db.NewSelect().Model((*expenses.Charge)(nil)).Column("id").
		Where("contract_id = ?", id).Where("status = ?", expenses.Unpaid)
	if order == contracts.RentFirst {
		q = q.Where("expense_id IN (?)", db.NewSelect().Model((*contracts.Rent)(nil)).Column("expense_id").Where("contract_id = ?", id))
	} else {
		q = q.Where("kind = ?", expenses.Regular).Where("expense_id IS NULL").Where("counter_id IS NULL")
	}
	var ids []uuid.UUID
	if err := database.Query(ctx, db, q, &ids); err != nil {
		return nil, fmt.Errorf("allocation order: %w", err)
	}
	return ids, nil
}
