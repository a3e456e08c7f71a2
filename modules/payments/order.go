package payments

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/platform/database"
)

// inContractOrder reorders open, the outstanding charges of the contract
// with id oldest first, by the contract's allocation order, read through
// db (the payment's transaction): rent_first puts the rent charges first,
// deposit_last puts the one-off charges (the deposit; charges of no
// expense, meter or late fee) after the rest; each group stays oldest
// first.
func inContractOrder(ctx context.Context, db bun.IDB, id uuid.UUID, open []expenses.Charge) ([]expenses.Charge, error) {
	order, err := contracts.AllocationOrderOf(ctx, db, id)
	if err != nil || order == contracts.OldestFirst || len(open) < 2 {
		return open, err
	}
	q := db.NewSelect().Model((*expenses.Charge)(nil)).Column("id").
		Where("contract_id = ?", id).Where("status = ?", expenses.Unpaid)
	switch order {
	case contracts.RentFirst:
		q = q.Where("expense_id IN (?)", db.NewSelect().Model((*contracts.Rent)(nil)).Column("expense_id").Where("contract_id = ?", id))
	case contracts.DepositLast:
		q = q.Where("kind = ?", expenses.Regular).Where("expense_id IS NULL").Where("counter_id IS NULL")
	default:
		return open, nil
	}
	var ids []uuid.UUID
	if err := database.Query(ctx, db, q, &ids); err != nil {
		return nil, fmt.Errorf("allocation order: %w", err)
	}
	marked := make(map[uuid.UUID]bool, len(ids))
	for _, c := range ids {
		marked[c] = true
	}
	first := order == contracts.RentFirst
	rank := func(c *expenses.Charge) int {
		if marked[c.ID] == first {
			return 0
		}
		return 1
	}
	out := slices.Clone(open)
	slices.SortStableFunc(out, func(a, b expenses.Charge) int { return rank(&a) - rank(&b) })
	return out, nil
}
