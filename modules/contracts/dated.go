package contracts

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/period"
)

// Dated is what the calendar reads of a contract: its dates, due day,
// rent and deposit, and the country and name of its property.
type Dated struct {
	bun.BaseModel `bun:"table:contracts,alias:c"`

	ID           uuid.UUID   `bun:"id"`
	PropertyID   uuid.UUID   `bun:"property_id"`
	Number       string      `bun:"number"`
	Status       string      `bun:"status"`
	StartDate    period.Date `bun:"start_date,nullzero"`
	EndDate      period.Date `bun:"end_date,nullzero"`
	TerminatedOn period.Date `bun:"terminated_on,nullzero"`
	DueDay       int         `bun:"due_day"`
	RentMinor    *int64      `bun:"rent_minor"`
	DepositMinor *int64      `bun:"deposit_minor"`
	Country      string      `bun:"country_code"`
	PropertyName string      `bun:"property_name"`
}

// EndsOn is the day the contract ends (its termination day when
// terminated), zero when open-ended.
func (d *Dated) EndsOn() period.Date {
	if d.Status == Terminated && !d.TerminatedOn.IsZero() {
		return d.TerminatedOn
	}
	return d.EndDate
}

// DatedFilter narrows DatedIn and RentChangesIn to one property or contract.
type DatedFilter struct {
	PropertyID *uuid.UUID
	ContractID *uuid.UUID
}

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

// RentChange is a change of a contract's rent after its start (an
// indexation), from the day it applies.
type RentChange struct {
	bun.BaseModel `bun:"table:contract_rents,alias:r"`

	ID          uuid.UUID   `bun:"id"`
	ContractID  uuid.UUID   `bun:"contract_id"`
	PropertyID  uuid.UUID   `bun:"property_id"`
	Number      string      `bun:"number"`
	From        period.Date `bun:"from_date"`
	AmountMinor int64       `bun:"amount_minor"`
	Currency    string      `bun:"currency"`
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
