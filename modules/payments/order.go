package payments

import (
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
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
	if order != contracts.RentFirst && order != contracts.DepositLast {
		return open, nil
	}
	ids, err := orderMarked(ctx, db, id, order)
	if err != nil {
		return nil, err
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
