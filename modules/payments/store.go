package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Store reads and writes payments and their allocations.
type Store struct{ db *bun.DB }

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

var errNotFound = errors.New("payment not found")

// allocationBatch is how many allocations one INSERT carries.
const allocationBatch = 2000

// Insert adds p through db.
func (s *Store) Insert(ctx context.Context, db bun.IDB, p *Payment) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(p)); err != nil {
		return fmt.Errorf("insert payment: %w", err)
	}
	return nil
}

// InsertMany adds the payments through db, a few hundred a statement.
func (s *Store) InsertMany(ctx context.Context, db bun.IDB, list []Payment) error {
	for start := 0; start < len(list); start += insertBatch {
		batch := list[start:min(start+insertBatch, len(list))]
		if _, err := database.Exec(ctx, db, db.NewInsert().Model(&batch)); err != nil {
			return fmt.Errorf("insert payments: %w", err)
		}
	}
	return nil
}

// insertBatch is how many payments one INSERT of InsertMany carries.
const insertBatch = 500

// InsertAllocations adds rows through db, a few hundred a statement.
func (s *Store) InsertAllocations(ctx context.Context, db bun.IDB, rows []Allocation) error {
	if database.IsPostgres(db) && len(rows) > 0 {
		return insertAllocationsUnnest(ctx, db, rows)
	}
	for start := 0; start < len(rows); start += allocationBatch {
		batch := rows[start:min(start+allocationBatch, len(rows))]
		if _, err := database.Exec(ctx, db, db.NewInsert().Model(&batch)); err != nil {
			return fmt.Errorf("insert allocations: %w", err)
		}
	}
	return nil
}

// insertAllocationsUnnest inserts allocations on PostgreSQL as columns of
// arrays: one cheap statement for a thousand rows. Rows of one call share
// the creation time. Rows of one payment and property (a payment being
// posted, the usual case) send those two once rather than in every row:
// two fewer arrays of a thousand UUIDs for the server to parse.
func insertAllocationsUnnest(ctx context.Context, db bun.IDB, rows []Allocation) error {
	n := len(rows)
	charges, amounts := make([]string, n), make([]int64, n)
	one := true
	for i, a := range rows {
		charges[i], amounts[i] = a.ChargeID.String(), int64(a.Amount)
		one = one && a.PaymentID == rows[0].PaymentID && a.PropertyID == rows[0].PropertyID
	}
	var err error
	if one {
		_, err = database.Exec(ctx, db, db.NewRaw(`INSERT INTO payment_allocations (payment_id, charge_id, property_id, amount_minor, created_at)
			SELECT ?::uuid, u.charge_id, ?::uuid, u.amount, ?
			FROM unnest(?::uuid[], ?::bigint[]) AS u (charge_id, amount)`,
			rows[0].PaymentID.String(), rows[0].PropertyID.String(), rows[0].CreatedAt,
			database.Array(charges), database.Array(amounts)))
	} else {
		payments, props := make([]string, n), make([]string, n)
		for i, a := range rows {
			payments[i], props[i] = a.PaymentID.String(), a.PropertyID.String()
		}
		_, err = database.Exec(ctx, db, db.NewRaw(`INSERT INTO payment_allocations (payment_id, charge_id, property_id, amount_minor, created_at)
			SELECT u.payment_id, u.charge_id, u.property_id, u.amount, ?
			FROM unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::bigint[]) AS u (payment_id, charge_id, property_id, amount)`,
			rows[0].CreatedAt, database.Array(payments), database.Array(charges), database.Array(props),
			database.Array(amounts)))
	}
	if err != nil {
		return fmt.Errorf("insert allocations: %w", err)
	}
	return nil
}

// ByID returns the payment with id through db (locked on PostgreSQL when
// db is a transaction).
func (s *Store) ByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*Payment, error) {
	p := new(Payment)
	q := db.NewSelect().Model(p).Where("id = ?", id)
	if _, isTx := db.(bun.Tx); isTx && database.IsPostgres(db) {
		q = q.For("UPDATE")
	}
	err := database.Select(ctx, db, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("payment by id: %w", err)
	}
	return p, nil
}

// LoadAllocations fills the live allocations of list, in one query.
func (s *Store) LoadAllocations(ctx context.Context, db bun.IDB, list []*Payment) error {
	if len(list) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(list))
	byID := make(map[uuid.UUID]*Payment, len(list))
	for i, p := range list {
		ids[i], byID[p.ID] = p.ID, p
		p.Allocations = []Allocation{}
	}
	var rows []Allocation
	err := database.Select(ctx, db, db.NewSelect().Model(&rows).Where("payment_id ?", database.In(ids)).Where("voided_at IS NULL").
		Order("created_at", "charge_id"))
	if err != nil {
		return fmt.Errorf("allocations: %w", err)
	}
	for _, a := range rows {
		p := byID[a.PaymentID]
		p.Allocations = append(p.Allocations, a)
	}
	return nil
}

// List returns a page of the property's payments, newest paid_on first,
// and how many match the filters.
func (s *Store) List(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Payment, listing.Result, error) {
	var list []Payment
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	if v := q.Get("contract_id"); v != "" {
		sel = sel.Where("contract_id = ?", v)
	}
	if v := q.Get("status"); v != "" {
		sel = sel.Where("status = ?", v)
	}
	if v := q.Get("from"); v != "" {
		sel = sel.Where("paid_on >= ?", v)
	}
	if v := q.Get("to"); v != "" {
		sel = sel.Where("paid_on <= ?", v)
	}
	total, err := listing.Scan(ctx, sel, q, listing.Desc("paid_on", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list payments: %w", err)
	}
	return list, total, nil
}

// MarkReversed writes p's reversal through db.
func (s *Store) MarkReversed(ctx context.Context, db bun.IDB, p *Payment) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(p).
		Column("status", "unallocated_minor", "reversed_at", "reversed_by", "reversal_reason", "updated_at").
		WherePK().Where("status = ?", Posted))
	if err != nil {
		return fmt.Errorf("reverse payment: %w", err)
	}
	_, err = database.Exec(ctx, db, db.NewUpdate().Model((*Allocation)(nil)).Set("voided_at = ?", p.ReversedAt).
		Where("payment_id = ?", p.ID).Where("voided_at IS NULL"))
	if err != nil {
		return fmt.Errorf("void allocations: %w", err)
	}
	return nil
}

// WithCredit returns the property's posted payments with unallocated
// money, oldest first (locked on PostgreSQL for the caller's transaction).
func (s *Store) WithCredit(ctx context.Context, db bun.IDB, propertyID uuid.UUID) ([]*Payment, error) {
	var list []*Payment
	q := db.NewSelect().Model(&list).Where("property_id = ?", propertyID).Where("status = ?", Posted).
		Where("unallocated_minor > 0").Order("paid_on", "created_at", "id")
	if database.IsPostgres(db) {
		q = q.For("UPDATE")
	}
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("payments with credit: %w", err)
	}
	return list, nil
}

// CreditHolders returns which of the properties with ids have a posted
// payment with credit left, in one statement.
func (s *Store) CreditHolders(ctx context.Context, db bun.IDB, ids []uuid.UUID) ([]uuid.UUID, error) {
	var got []uuid.UUID
	if len(ids) == 0 {
		return got, nil
	}
	q := db.NewSelect().Model((*Payment)(nil)).ColumnExpr("DISTINCT property_id").Where("property_id ?", database.In(ids)).
		Where("status = ?", Posted).Where("unallocated_minor > 0")
	if err := database.Query(ctx, db, q, &got); err != nil {
		return nil, fmt.Errorf("properties with credit: %w", err)
	}
	return got, nil
}

// SetUnallocated writes the unallocated amount of each of list through db.
func (s *Store) SetUnallocated(ctx context.Context, db bun.IDB, list []*Payment, at time.Time) error {
	for _, p := range list {
		_, err := database.Exec(ctx, db, db.NewUpdate().Model((*Payment)(nil)).Set("unallocated_minor = ?", p.Unallocated).
			Set("updated_at = ?", at).Where("id = ?", p.ID))
		if err != nil {
			return fmt.Errorf("payment credit: %w", err)
		}
	}
	return nil
}

// Balance sums, in one statement, the property's charges (through the
// expenses module's TotalsQuery) and posted payments.
func (s *Store) Balance(ctx context.Context, propertyID uuid.UUID, contractID *uuid.UUID, asOf period.Date) (Balance, error) {
	pay := s.db.NewSelect().Model((*Payment)(nil)).
		ColumnExpr("CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) AS paid").
		ColumnExpr("CAST(COALESCE(SUM(unallocated_minor), 0) AS BIGINT) AS credit").
		Where("property_id = ?", propertyID).Where("status = ?", Posted)
	if contractID != nil {
		pay = pay.Where("contract_id = ?", *contractID)
	}
	var b Balance
	err := database.Query(ctx, s.db, s.db.NewSelect().
		TableExpr("(?) AS c", expenses.TotalsQuery(s.db, propertyID, contractID, asOf)).
		TableExpr("(?) AS p", pay).
		ColumnExpr("c.charged, p.paid, c.outstanding, c.overdue, p.credit"),
		&b.Charged, &b.Paid, &b.Outstanding, &b.Overdue, &b.Credit)
	if err != nil {
		return Balance{}, fmt.Errorf("balance: %w", err)
	}
	return b, nil
}

// Read returns the payment with id through db, without a lock.
func (s *Store) Read(ctx context.Context, db bun.IDB, id uuid.UUID) (*Payment, error) {
	p := new(Payment)
	err := database.Select(ctx, db, db.NewSelect().Model(p).Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("payment: %w", err)
	}
	return p, nil
}

// ReceivedFor is, through db, what the payments of the charge with id gave
// it (allocations not voided), summed by the day paid, oldest first: when
// a deposit was received, for the interest it earned (modules/compensations).
func ReceivedFor(ctx context.Context, db bun.IDB, chargeID uuid.UUID) ([]Received, error) {
	var out []Received
	err := database.Query(ctx, db, db.NewSelect().TableExpr("payment_allocations AS a").
		Join("JOIN payments AS p ON p.id = a.payment_id").
		ColumnExpr("p.paid_on AS paid_on, CAST(SUM(a.amount_minor) AS BIGINT) AS amount").
		Where("a.charge_id = ?", chargeID).Where("a.voided_at IS NULL").
		GroupExpr("p.paid_on").OrderExpr("p.paid_on"), &out)
	if err != nil {
		return nil, fmt.Errorf("received for charge: %w", err)
	}
	return out, nil
}
