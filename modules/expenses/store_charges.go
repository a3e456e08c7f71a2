package expenses

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// openColumns are the columns of a charge OpenCharges fills: what a
// payment spread over them reads (a thousand charges scan faster without
// the rest).
var openColumns = []string{"id", "property_id", "name", "amount_minor", "currency", "period", "due_date", "status", "contract_id", "paid_amount_minor"}

// OpenCharges returns, through db, the property's charges (the columns of
// openColumns) that still have something owed (neither paid nor
// cancelled), oldest first: by due date, then creation, then id; only the
// contract's when contractID is set. The
// caller's transaction holds the property's lock (properties.Lock), which
// every writer of paid amounts and statuses takes first, so the rows need
// no lock of their own.
func OpenCharges(ctx context.Context, db bun.IDB, propertyID uuid.UUID, contractID *uuid.UUID) ([]Charge, error) {
	var list []Charge
	q := db.NewSelect().Model(&list).Column(openColumns...).
		Where("property_id = ?", propertyID).Where("status = ?", Unpaid).
		Order("due_date", "created_at", "id")
	if contractID != nil {
		q = q.Where("contract_id = ?", *contractID)
	}
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("open charges: %w", err)
	}
	return list, nil
}

// ChargesByID returns, through db, the property's charges with the given
// ids that exist; like OpenCharges, under the caller's property lock.
func ChargesByID(ctx context.Context, db bun.IDB, propertyID uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]*Charge, error) {
	out := make(map[uuid.UUID]*Charge, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var list []Charge
	q := db.NewSelect().Model(&list).Where("property_id = ?", propertyID).Where("id ?", database.In(ids)).Order("id")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("charges by id: %w", err)
	}
	for i := range list {
		out[list[i].ID] = &list[i]
	}
	return out, nil
}

// PaidChange is an amount added to (or, negative, taken from) what was
// paid on a charge.
type PaidChange struct {
	ChargeID uuid.UUID
	Delta    money.Amount
}

// paidBatch is how many charges one UPDATE of AddPaid carries.
const paidBatch = 2000

// AddPaid applies changes to the charges' paid_amount through db (the
// caller's transaction), a few hundred charges a statement, and sets each
// status to paid when the amount is reached, unpaid otherwise. A change
// that would take paid_amount below 0 or above the amount, or touch a
// cancelled charge, fails: the caller's transaction must then roll back.
// A charge appears at most once in changes.
func AddPaid(ctx context.Context, db bun.IDB, changes []PaidChange) error {
	if database.IsPostgres(db) {
		return addPaidUnnest(ctx, db, changes)
	}
	for start := 0; start < len(changes); start += paidBatch {
		batch := changes[start:min(start+paidBatch, len(changes))]
		values := make([]string, len(batch))
		args := make([]any, 0, 2*len(batch)+4)
		for i, ch := range batch {
			if database.IsPostgres(db) {
				values[i] = "(?::uuid, ?::bigint)"
			} else {
				values[i] = "(?, ?)"
			}
			args = append(args, ch.ChargeID, int64(ch.Delta))
		}
		args = append(args, Paid, Unpaid, Cancelled)
		// d(id, delta) is the change list; the WHERE keeps paid_amount in
		// 0..amount, so a row that would leave it is not updated and the
		// count below tells.
		res, err := database.Exec(ctx, db, db.NewRaw(`WITH d (id, delta) AS (VALUES `+strings.Join(values, ", ")+`)
			UPDATE charges SET paid_amount_minor = charges.paid_amount_minor + d.delta,
				status = CASE WHEN charges.paid_amount_minor + d.delta = charges.amount_minor THEN ? ELSE ? END
			FROM d WHERE charges.id = d.id AND charges.status <> ?
				AND charges.paid_amount_minor + d.delta BETWEEN 0 AND charges.amount_minor`, args...))
		if err != nil {
			return fmt.Errorf("charge paid amounts: %w", err)
		}
		if n, _ := res.RowsAffected(); int(n) != len(batch) {
			return fmt.Errorf("charge paid amounts: %d of %d charges changed; one would leave 0..amount or is cancelled", n, len(batch))
		}
	}
	return nil
}

// addPaidUnnest is AddPaid on PostgreSQL: the changes travel as two
// arrays, one statement for any number of charges (a VALUES list of a
// thousand rows cost the server more to parse and plan).
func addPaidUnnest(ctx context.Context, db bun.IDB, changes []PaidChange) error {
	if len(changes) == 0 {
		return nil
	}
	ids, deltas := make([]string, len(changes)), make([]int64, len(changes))
	for i, ch := range changes {
		ids[i], deltas[i] = ch.ChargeID.String(), int64(ch.Delta)
	}
	res, err := database.Exec(ctx, db, db.NewRaw(`UPDATE charges SET paid_amount_minor = charges.paid_amount_minor + d.delta,
			status = CASE WHEN charges.paid_amount_minor + d.delta = charges.amount_minor THEN ? ELSE ? END
		FROM unnest(?::uuid[], ?::bigint[]) AS d (id, delta)
		WHERE charges.id = d.id AND charges.status <> ?
			AND charges.paid_amount_minor + d.delta BETWEEN 0 AND charges.amount_minor`,
		Paid, Unpaid, database.Array(ids), database.Array(deltas), Cancelled))
	if err != nil {
		return fmt.Errorf("charge paid amounts: %w", err)
	}
	if n, _ := res.RowsAffected(); int(n) != len(changes) {
		return fmt.Errorf("charge paid amounts: %d of %d charges changed; one would leave 0..amount or is cancelled", n, len(changes))
	}
	return nil
}

// TotalsQuery is one row of the property's charge totals (of the contract,
// when contractID is set), as columns charged, outstanding and overdue
// (outstanding of charges due before asOf), in minor units, cancelled
// charges left out. Another module (payments' balance) joins it into its
// own single statement.
func TotalsQuery(db bun.IDB, propertyID uuid.UUID, contractID *uuid.UUID, asOf period.Date) *bun.SelectQuery {
	q := db.NewSelect().Model((*Charge)(nil)).
		ColumnExpr("CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) AS charged").
		ColumnExpr("CAST(COALESCE(SUM(amount_minor - paid_amount_minor), 0) AS BIGINT) AS outstanding").
		ColumnExpr("CAST(COALESCE(SUM(CASE WHEN due_date < ? THEN amount_minor - paid_amount_minor ELSE 0 END), 0) AS BIGINT) AS overdue", asOf).
		Where("property_id = ?", propertyID).Where("status <> ?", Cancelled)
	if contractID != nil {
		q = q.Where("contract_id = ?", *contractID)
	}
	return q
}

// ContractCharges returns, through db, the contract's charges of the
// property that are not cancelled, oldest first (due date, creation, id):
// what a deposit settlement reads (the deposit paid, what is still owed).
func ContractCharges(ctx context.Context, db bun.IDB, propertyID, contractID uuid.UUID) ([]Charge, error) {
	var list []Charge
	q := db.NewSelect().Model(&list).Where("property_id = ?", propertyID).Where("contract_id = ?", contractID).
		Where("status <> ?", Cancelled).Order("due_date", "created_at", "id")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("contract charges: %w", err)
	}
	return list, nil
}

// lastBilled returns the due date of the latest charge of each expense of
// ids that has one, in one statement.
func (s *Store) lastBilled(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]period.Date, error) {
	var rows []struct {
		Origin uuid.UUID   `bun:"origin"`
		Last   period.Date `bun:"last"`
	}
	q := s.db.NewSelect().Model((*Charge)(nil)).ColumnExpr("origin, max(due_date) AS last").
		Where("origin ?", database.In(ids)).Group("origin")
	if err := database.Query(ctx, s.db, q, &rows); err != nil {
		return nil, fmt.Errorf("last billed periods: %w", err)
	}
	out := make(map[uuid.UUID]period.Date, len(rows))
	for _, r := range rows {
		out[r.Origin] = r.Last
	}
	return out, nil
}

// reread loads c's paid amount and status again (credit may have paid it).
func reread(ctx context.Context, db bun.IDB, c *Charge) error {
	if err := database.Select(ctx, db, db.NewSelect().Model(c).Column("paid_amount_minor", "status").WherePK()); err != nil {
		return fmt.Errorf("reread charge: %w", err)
	}
	return nil
}

// insertMeterCharges inserts a batch of meter charges.
func (s *Store) insertMeterCharges(ctx context.Context, db bun.IDB, batch []meterChargeRow) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(&batch)); err != nil {
		return fmt.Errorf("insert meter charges: %w", err)
	}
	return nil
}

// chargeProperty is the property of the charge with id; ErrNotFound when
// no charge has it.
func (s *Store) chargeProperty(ctx context.Context, db bun.IDB, id uuid.UUID) (uuid.UUID, error) {
	var propertyID uuid.UUID
	if err := database.Query(ctx, db, db.NewSelect().Model((*Charge)(nil)).Column("property_id").Where("id = ?", id), &propertyID); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return uuid.Nil, ErrNotFound
		}
		return uuid.Nil, fmt.Errorf("charge property: %w", err)
	}
	return propertyID, nil
}

// chargeStatusForUpdate reads the status and paid amount of the charge
// with id, its row locked on PostgreSQL; ErrNotFound when no charge has it.
func (s *Store) chargeStatusForUpdate(ctx context.Context, db bun.IDB, id uuid.UUID) (string, money.Amount, error) {
	q := db.NewSelect().Model((*Charge)(nil)).Column("status", "paid_amount_minor").Where("id = ?", id)
	if database.IsPostgres(db) {
		q = q.For("UPDATE")
	}
	var status string
	var paid money.Amount
	err := database.Query(ctx, db, q, &status, &paid)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, ErrNotFound
	}
	if err != nil {
		return "", 0, fmt.Errorf("charge status: %w", err)
	}
	return status, paid, nil
}

// cancelCharge marks the charge with id cancelled by the user by at at.
func (s *Store) cancelCharge(ctx context.Context, db bun.IDB, id uuid.UUID, at time.Time, by int64) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model((*Charge)(nil)).
		Set("status = ?", Cancelled).Set("cancelled_at = ?", at).Set("cancelled_by = ?", database.Param{V: by}).
		Where("id = ?", id))
	if err != nil {
		return fmt.Errorf("cancel charge: %w", err)
	}
	return nil
}

// counterHasCharges tells whether any charge was billed from the
// counter's readings.
func (s *Store) counterHasCharges(ctx context.Context, db bun.IDB, counterID uuid.UUID) (bool, error) {
	ok, err := database.Exists(ctx, db, db.NewSelect().Model((*Charge)(nil)).Where("counter_id = ?", counterID))
	if err != nil {
		return false, fmt.Errorf("charges of counter: %w", err)
	}
	return ok, nil
}

// owed pages, by id, through the workspace's contract charges still owed
// that fall due from from to to.
func (s *Store) owed(ctx context.Context, db bun.IDB, workspaceID int64, from, to period.Date, after uuid.UUID, limit int) ([]Charge, error) {
	var list []Charge
	q := db.NewSelect().Model(&list).
		Join("JOIN properties AS p ON p.id = charge.property_id").
		Where("p.workspace_id = ?", database.Param{V: workspaceID}).
		Where("charge.contract_id IS NOT NULL").
		Where("charge.status = ?", Unpaid).
		Where("charge.amount_minor > charge.paid_amount_minor").
		Where("charge.due_date >= ?", from).Where("charge.due_date <= ?", to).
		Where("charge.id > ?", after).
		OrderExpr("charge.id").Limit(int64(limit))
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("owed charges: %w", err)
	}
	return list, nil
}

// insertPenalties inserts a batch of late fees, none twice for one charge,
// and returns the ids of those inserted.
func (s *Store) insertPenalties(ctx context.Context, db bun.IDB, batch []Charge) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	if err := database.Query(ctx, db, db.NewInsert().Model(&batch).On("CONFLICT (penalty_for) WHERE penalty_for IS NOT NULL DO NOTHING").Returning("id"), &ids); err != nil {
		return nil, fmt.Errorf("insert penalties: %w", err)
	}
	return ids, nil
}

// penaltiesOf returns the ids of the late fees of the charge forID that
// are not cancelled.
func (s *Store) penaltiesOf(ctx context.Context, db bun.IDB, forID uuid.UUID) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	err := database.Query(ctx, db, db.NewSelect().Model((*Charge)(nil)).Column("id").
		Where("penalty_for = ?", forID).Where("status <> ?", Cancelled), &ids)
	if err != nil {
		return nil, fmt.Errorf("penalty of charge: %w", err)
	}
	return ids, nil
}

// propertyHasCharges tells whether the property has any charge.
func (s *Store) propertyHasCharges(ctx context.Context, db bun.IDB, propertyID uuid.UUID) (bool, error) {
	has, err := database.Exists(ctx, db, db.NewSelect().Model((*Charge)(nil)).Where("property_id = ?", propertyID))
	if err != nil {
		return false, fmt.Errorf("charges of property: %w", err)
	}
	return has, nil
}

// deleteExpensesOf deletes the property's expenses, deleted ones included.
func (s *Store) deleteExpensesOf(ctx context.Context, db bun.IDB, propertyID uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Expense)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return fmt.Errorf("delete expenses of property: %w", err)
	}
	return nil
}
