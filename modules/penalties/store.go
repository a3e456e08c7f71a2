package penalties

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/expenses/calendar"
	"github.com/propman/propman/platform/listing"
)

// Store reads penalties and the charges that may get one. Penalties are
// rows of the expenses module's charges table (kind penalty).
type Store struct {
	db *bun.DB
}

// NewStore returns the store.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// candidate is an overdue charge and whether it has its penalty.
type candidate struct {
	expenses.Charge `bun:",extend"`
	HasPenalty      bool `bun:"has_penalty"`
}

// Overdue returns, through db, the property's regular charges of the
// given contracts that are due before today, neither paid nor cancelled,
// with something still owed, each with whether a penalty for it exists;
// oldest due first.
func (s *Store) Overdue(ctx context.Context, db bun.IDB, propertyID uuid.UUID, contracts []uuid.UUID, today calendar.Date) ([]candidate, error) {
	var list []candidate
	if len(contracts) == 0 {
		return list, nil
	}
	err := db.NewSelect().Model(&list).
		ColumnExpr("c.*").
		ColumnExpr("EXISTS (SELECT 1 FROM charges AS p WHERE p.penalty_for = c.id) AS has_penalty").
		ModelTableExpr("charges AS c").
		Where("c.property_id = ?", propertyID).
		Where("c.contract_id IN (?)", bun.In(contracts)).
		Where("c.kind = ?", expenses.Regular).
		Where("c.status = ?", expenses.Unpaid).
		Where("c.amount_minor - c.paid_amount_minor > 0").
		Where("c.due_date < ?", today).
		Order("c.due_date", "c.id").
		Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("overdue charges: %w", err)
	}
	return list, nil
}

// List returns a page of the property's penalties, newest due first, and
// how many match (?contract_id=).
func (s *Store) List(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]expenses.Charge, int, error) {
	var list []expenses.Charge
	sel := s.db.NewSelect().Model(&list).
		Where("property_id = ?", propertyID).Where("kind = ?", expenses.Penalty)
	if v := q.Get("contract_id"); v != "" {
		sel = sel.Where("contract_id = ?", v)
	}
	total, err := listing.Scan(ctx, sel.OrderExpr("due_date DESC, id DESC"), q)
	if err != nil {
		return nil, 0, fmt.Errorf("list penalties: %w", err)
	}
	return list, total, nil
}
