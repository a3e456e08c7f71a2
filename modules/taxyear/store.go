package taxyear

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Store reads what the tax year adds up.
type Store struct {
	db *bun.DB
}

// NewStore returns the store.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// propertyRow is a property the tax year reports on.
type propertyRow struct {
	ID       uuid.UUID `bun:"id"`
	Name     string    `bun:"name"`
	Address  string    `bun:"address"`
	Postal   string    `bun:"postal_code"`
	City     string    `bun:"city"`
	Country  string    `bun:"country_code"`
	Currency string    `bun:"currency"`
	OwnerID  int64     `bun:"owner_id"`
}

// properties lists the workspace's properties, archived ones too (they
// may have had income in the year), by name.
func (s *Store) properties(ctx context.Context, workspaceID int64) ([]propertyRow, error) {
	var out []propertyRow
	q := s.db.NewSelect().TableExpr("properties").ColumnExpr("id, name, address, postal_code, city, country_code, currency, owner_id").
		Where("workspace_id = ?", database.Param{V: workspaceID}).OrderExpr("name, id")
	if err := database.Query(ctx, s.db, q, &out); err != nil {
		return nil, fmt.Errorf("tax year properties: %w", err)
	}
	return out, nil
}

// received is money received on a property by the account its charge
// was booked to.
type received struct {
	PropertyID uuid.UUID    `bun:"property_id"`
	Account    string       `bun:"account"`
	Amount     money.Amount `bun:"amount"`
}

// accountOfCharge is the SQL of the account a charge (alias ch) was
// booked to, the rule of expenses.ChargeAccount.
const accountOfCharge = `CASE WHEN ch.kind IN (?, ?) THEN ?
	WHEN ch.expense_id IS NULL AND ch.kind = ? AND ch.name = ? THEN ?
	WHEN ch.name LIKE ? THEN ?
	WHEN ch.expense_id IS NOT NULL THEN ?
	ELSE ? END`

func accountArgs() []any {
	return []any{expenses.Penalty, expenses.Fine, string(journal.OtherIncome),
		expenses.Regular, expenses.DepositChargeName, string(journal.DepositsHeld),
		expenses.PrepaymentPrefix + "%", string(journal.Prepayments),
		string(journal.RentIncome), string(journal.OtherIncome)}
}

// received sums the workspace's posted payments dated from..to by
// property and by the account of the charges their live allocations paid
// (a set-off counts: the claim it settled is received when it is set
// off), and, as "advance", what money they brought beyond any charge
// (a set-off's rest is no money).
func (s *Store) received(ctx context.Context, workspaceID int64, propertyID *uuid.UUID, from, to period.Date) ([]received, error) {
	ws := database.Param{V: workspaceID}
	onProperty := ""
	if propertyID != nil {
		onProperty = " AND pay.property_id = ?"
	}
	args := append(accountArgs(), ws, payments.Posted, from, to)
	if propertyID != nil {
		args = append(args, *propertyID)
	}
	args = append(args, ws, payments.Posted, payments.SetOff, from, to)
	if propertyID != nil {
		args = append(args, *propertyID)
	}
	q := s.db.NewRaw(`SELECT property_id, account, CAST(SUM(v) AS BIGINT) AS amount FROM (
		SELECT pay.property_id AS property_id, `+accountOfCharge+` AS account, a.amount_minor AS v
		FROM payments AS pay JOIN properties AS p ON p.id = pay.property_id
		JOIN payment_allocations AS a ON a.payment_id = pay.id AND a.voided_at IS NULL
		JOIN charges AS ch ON ch.id = a.charge_id
		WHERE p.workspace_id = ? AND pay.status = ? AND pay.paid_on >= ? AND pay.paid_on <= ?`+onProperty+`
		UNION ALL
		SELECT pay.property_id, 'advance', pay.unallocated_minor
		FROM payments AS pay JOIN properties AS p ON p.id = pay.property_id
		WHERE p.workspace_id = ? AND pay.status = ? AND pay.method <> ? AND pay.paid_on >= ? AND pay.paid_on <= ?`+onProperty+`) AS x
		GROUP BY property_id, account ORDER BY property_id, account`, args...)
	var out []received
	if err := database.Query(ctx, s.db, q, &out); err != nil {
		return nil, fmt.Errorf("tax year received: %w", err)
	}
	return out, nil
}
