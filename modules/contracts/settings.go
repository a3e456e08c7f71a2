package contracts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// The allocation orders: how a payment for the contract that names no
// charges is spread over its outstanding charges (modules/payments).
const (
	// OldestFirst: by due date, then creation.
	OldestFirst = "oldest_first"
	// RentFirst: the rent charges oldest first, then the rest oldest first.
	RentFirst = "rent_first"
	// DepositLast: oldest first, but the deposit and other one-off charges
	// after everything else.
	DepositLast = "deposit_last"
)

// AllocationOrders are the values of allocation_order.
var AllocationOrders = []string{OldestFirst, RentFirst, DepositLast}

// The late-fee bases: which charges a late fee is computed on
// (modules/penalties).
const (
	// BasePeriodic: charges billed by the contract's expenses (rent,
	// utility prepayment) or its meters. The deposit, refunds and fines
	// (one-off charges) are never the base of a late fee.
	BasePeriodic = "periodic"
	// BaseAll: every regular charge of the contract, the one-off ones too.
	BaseAll = "all"
)

// LateFeeBases are the values of late_fee_base.
var LateFeeBases = []string{BasePeriodic, BaseAll}

// applySettings copies the given money settings of req onto c, or returns
// one message per bad value.
func applySettings(c *Contract, req *contractRequest) []string {
	var details []string
	set := func(field string, v *string, allowed []string, dst *string) {
		if v == nil {
			return
		}
		s := strings.ToLower(strings.TrimSpace(*v))
		if !slices.Contains(allowed, s) {
			details = append(details, fmt.Sprintf("%s: must be one of %s", field, strings.Join(allowed, ", ")))
			return
		}
		*dst = s
	}
	set("allocation_order", req.AllocationOrder, AllocationOrders, &c.AllocationOrder)
	set("late_fee_base", req.LateFeeBase, LateFeeBases, &c.LateFeeBase)
	return details
}

// AllocationOrderOf returns, through db, the allocation order of the
// contract with id (OldestFirst when no contract has it). A function for
// the payments module, which the contracts service depends on.
func AllocationOrderOf(ctx context.Context, db bun.IDB, id uuid.UUID) (string, error) {
	var order string
	err := database.Query(ctx, db, db.NewSelect().Model((*Contract)(nil)).Column("allocation_order").Where("id = ?", id), &order)
	if errors.Is(err, sql.ErrNoRows) {
		return OldestFirst, nil
	}
	if err != nil {
		return "", fmt.Errorf("allocation order: %w", err)
	}
	return order, nil
}

// RentExpenses returns, through db, the ids of the expenses that bill the
// contract's rent (every rent of its history): their charges are its rent.
func RentExpenses(ctx context.Context, db bun.IDB, contractID uuid.UUID) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	if err := database.Query(ctx, db, db.NewSelect().Model((*Rent)(nil)).Column("expense_id").Where("contract_id = ?", contractID), &ids); err != nil {
		return nil, fmt.Errorf("rent expenses: %w", err)
	}
	return ids, nil
}
