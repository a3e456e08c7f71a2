package expenses

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Ledger is the payments module as the charges see it. The expenses module
// calls it inside every transaction that creates charges, so that a
// property's unallocated credit is used on them before the transaction
// commits. It is optional: without the payments module charges are created
// as before.
type Ledger interface {
	// ChargesCreated runs in tx, which holds the property's lock, after
	// charges of the property were inserted.
	ChargesCreated(ctx context.Context, tx bun.IDB, propertyID uuid.UUID, charges []Charge) error
	// ChargeEnteredPaid runs in tx after a manual charge entered with
	// status paid was inserted unpaid: the ledger records the payment that
	// settles it, so that paid_amount stays the sum of allocations.
	ChargeEnteredPaid(ctx context.Context, tx bun.IDB, c *Charge) error
}

// chargesCreated journals new charges and hands them to the ledger, when
// there is one.
func (s *Service) chargesCreated(ctx context.Context, tx bun.IDB, propertyID uuid.UUID, charges []Charge) error {
	if err := s.bookCharges(ctx, tx, charges); err != nil {
		return err
	}
	if s.ledger == nil || len(charges) == 0 {
		return nil
	}
	return s.ledger.ChargesCreated(ctx, tx, propertyID, charges)
}

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
