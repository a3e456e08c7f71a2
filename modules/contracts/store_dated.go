package contracts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// DatedIn reads, in one statement over the workspace, its active and
// terminated contracts that have started by to and have not ended before
// since (drafts have no dates yet): the calendar derives rent due dates,
// starts, ends and deposit deadlines from them.
func DatedIn(ctx context.Context, db bun.IDB, workspaceID int64, since, to period.Date, f DatedFilter) ([]Dated, error) {
	var list []Dated
	q := db.NewSelect().Model(&list).
		ColumnExpr("c.id, c.property_id, c.number, c.status, c.start_date, c.end_date, c.terminated_on, c.due_day, c.rent_minor, c.deposit_minor").
		ColumnExpr("p.country_code, p.name AS property_name").
		Join("JOIN properties AS p ON p.id = c.property_id").
		Where("c.workspace_id = ?", database.Param{V: workspaceID}).
		// Said of the properties too, so that the planner reads the
		// workspace's properties by their index, not the whole table.
		Where("p.workspace_id = ?", database.Param{V: workspaceID}).
		Where("c.status IN (?, ?)", Active, Terminated).
		Where("c.start_date IS NOT NULL").
		Where("c.start_date <= ?", to).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("c.status = ?", Active).WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
					return q.Where("c.end_date IS NULL").WhereOr("c.end_date >= ?", since)
				})
			}).WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("c.status = ?", Terminated).Where("c.terminated_on >= ?", since)
			})
		})
	if f.PropertyID != nil {
		q = q.Where("c.property_id = ?", *f.PropertyID)
	}
	if f.ContractID != nil {
		q = q.Where("c.id = ?", *f.ContractID)
	}
	if err := database.Select(ctx, db, q.OrderExpr("c.id")); err != nil {
		return nil, fmt.Errorf("dated contracts: %w", err)
	}
	return list, nil
}

// RentChangesIn reads, in one statement over the workspace, the rent
// changes of its active and terminated contracts that apply from a day of
// from..to, the first rent of each contract left out.
func RentChangesIn(ctx context.Context, db bun.IDB, workspaceID int64, from, to period.Date, f DatedFilter) ([]RentChange, error) {
	var list []RentChange
	q := db.NewSelect().Model(&list).
		ColumnExpr("r.id, r.contract_id, c.property_id, c.number, r.from_date, r.amount_minor, c.currency").
		Join("JOIN contracts AS c ON c.id = r.contract_id").
		Where("c.workspace_id = ?", database.Param{V: workspaceID}).
		Where("c.status IN (?, ?)", Active, Terminated).
		Where("r.from_date > c.start_date").
		Where("r.from_date >= ?", from).
		Where("r.from_date <= ?", to)
	if f.PropertyID != nil {
		q = q.Where("c.property_id = ?", *f.PropertyID)
	}
	if f.ContractID != nil {
		q = q.Where("c.id = ?", *f.ContractID)
	}
	if err := database.Select(ctx, db, q.OrderExpr("r.id")); err != nil {
		return nil, fmt.Errorf("rent changes: %w", err)
	}
	return list, nil
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

func insertRent(ctx context.Context, db bun.IDB, contractID, expenseID uuid.UUID, from period.Date, amount money.Amount, at time.Time, ix *Index) error {
	id, err := uuid.NewV7()
	if err != nil {
		return fmt.Errorf("rent id: %w", err)
	}
	r := &Rent{ID: id, ContractID: contractID, From: from, Amount: amount, ExpenseID: expenseID, CreatedAt: at}
	if ix != nil {
		r.IndexName, r.IndexOldPeriod, r.IndexOldValue, r.IndexNewPeriod, r.IndexNewValue = &ix.Name, &ix.OldPeriod, &ix.OldValue, &ix.NewPeriod, &ix.NewValue
	}
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(r)); err != nil {
		return fmt.Errorf("insert rent: %w", err)
	}
	return nil
}
