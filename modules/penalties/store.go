package penalties

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Store reads penalties and the charges that may get one. Penalties are
// rows of the expenses module's charges table (kind penalty).
type Store struct {
	db *bun.DB
}

// NewStore returns the store.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// Overdue returns, through db, the property's charges that are due
// before today, neither paid nor cancelled, with something still owed,
// oldest due first: the regular charges of the contracts all, the regular
// charges of the contracts periodic that an expense (rent, utility
// prepayment) or a meter billed, never a one-off charge such as the
// deposit, and the fines of the contracts fines.
func (s *Store) Overdue(ctx context.Context, db bun.IDB, propertyID uuid.UUID, all, periodic, fines []uuid.UUID, today period.Date) ([]expenses.Charge, error) {
	var list []expenses.Charge
	if len(all)+len(periodic)+len(fines) == 0 {
		return list, nil
	}
	err := database.Select(ctx, db, db.NewSelect().Model(&list).
		Where("property_id = ?", propertyID).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			if len(all) > 0 {
				q = q.WhereOr("kind = ? AND contract_id ?", expenses.Regular, database.In(all))
			}
			if len(periodic) > 0 {
				q = q.WhereOr("kind = ? AND contract_id ? AND (expense_id IS NOT NULL OR counter_id IS NOT NULL)", expenses.Regular, database.In(periodic))
			}
			if len(fines) > 0 {
				q = q.WhereOr("kind = ? AND contract_id ?", expenses.Fine, database.In(fines))
			}
			return q
		}).
		Where("status = ?", expenses.Unpaid).
		Where("amount_minor - paid_amount_minor > 0").
		Where("due_date < ?", today).
		Order("due_date", "id"))
	if err != nil {
		return nil, fmt.Errorf("overdue charges: %w", err)
	}
	return list, nil
}

// Penalised returns, through db, the ids of the property's charges that
// have their penalty.
func (s *Store) Penalised(ctx context.Context, db bun.IDB, propertyID uuid.UUID) (map[uuid.UUID]bool, error) {
	var ids []uuid.UUID
	err := database.Query(ctx, db, db.NewSelect().Model((*expenses.Charge)(nil)).Column("penalty_for").
		Where("property_id = ?", propertyID).Where("penalty_for IS NOT NULL"), &ids)
	if err != nil {
		return nil, fmt.Errorf("penalised charges: %w", err)
	}
	out := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// List returns a page of the property's penalties, newest due first, and
// how many match (?contract_id=).
func (s *Store) List(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]expenses.Charge, listing.Result, error) {
	var list []expenses.Charge
	sel := s.db.NewSelect().Model(&list).
		Where("property_id = ?", propertyID).Where("kind = ?", expenses.Penalty)
	if v := q.Get("contract_id"); v != "" {
		sel = sel.Where("contract_id = ?", v)
	}
	total, err := listing.Scan(ctx, sel, q, listing.Desc("due_date", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list penalties: %w", err)
	}
	return list, total, nil
}
