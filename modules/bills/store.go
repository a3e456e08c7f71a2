package bills

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Store reads and writes bills.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// errNotFound means no bill matched.
var errNotFound = errors.New("bill not found")

// byID returns, through db, the bill with id under the property.
func (s *Store) byID(ctx context.Context, db bun.IDB, propertyID, id uuid.UUID) (*Bill, error) {
	b := new(Bill)
	err := database.Select(ctx, db, db.NewSelect().Model(b).Where("id = ?", id).Where("property_id = ?", propertyID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("bill by id: %w", err)
	}
	return b, nil
}

func (s *Store) insert(ctx context.Context, db bun.IDB, b *Bill) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(b)); err != nil {
		return fmt.Errorf("insert bill: %w", err)
	}
	return nil
}

func (s *Store) update(ctx context.Context, db bun.IDB, b *Bill) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(b).
		Column("supplier_id", "bill_date", "due_date", "paid_on", "amount_minor", "vat_minor", "vat_rate_centi",
			"category", "operating_category", "allocable", "document_id", "note", "updated_at").
		Where("id = ?", b.ID))
	if err != nil {
		return fmt.Errorf("update bill: %w", err)
	}
	return nil
}

func (s *Store) delete(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Bill)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("delete bill: %w", err)
	}
	return nil
}

// filter narrows a list by the query's filters.
func filter(sel *bun.SelectQuery, q listing.Query) *bun.SelectQuery {
	if id, err := uuid.Parse(q.Get("property_id")); err == nil {
		sel = sel.Where("property_id = ?", id)
	}
	if v := q.Get("category"); v != "" {
		sel = sel.Where("category = ?", v)
	}
	if v := q.Get("operating_cost_category"); v != "" {
		sel = sel.Where("operating_category = ?", v)
	}
	if d, err := period.ParseDate(q.Get("from")); err == nil {
		sel = sel.Where("bill_date >= ?", d)
	}
	if d, err := period.ParseDate(q.Get("to")); err == nil {
		sel = sel.Where("bill_date <= ?", d)
	}
	switch q.Get("status") {
	case Paid:
		sel = sel.Where("paid_on IS NOT NULL")
	case Unpaid:
		sel = sel.Where("paid_on IS NULL")
	}
	return sel
}

// order is every list's order: newest bill first.
var order = listing.Desc("bill_date", "id")

// list returns a page of the bills of p's workspace under the query's
// filters; the page's statement reads p's role too.
func (s *Store) list(ctx context.Context, p *auth.Principal, q listing.Query) ([]Bill, listing.Result, error) {
	var out []Bill
	res, err := listing.ScanWorkspace(ctx, filter(s.db.NewSelect().Model(&out), q), "workspace_id", p, q, order)
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list bills: %w", err)
	}
	return out, res, nil
}

// listProperty returns a page of the property's bills.
func (s *Store) listProperty(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Bill, listing.Result, error) {
	var out []Bill
	sel := filter(s.db.NewSelect().Model(&out).Where("property_id = ?", propertyID), q)
	res, err := listing.Scan(ctx, sel, q, order)
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list bills: %w", err)
	}
	return out, res, nil
}

// AllocableIn returns, through db, the allocable bills of the properties
// dated from..to (both inclusive), oldest first: what the yearly
// operating-cost statement (modules/opcosts) spreads over the tenants.
func AllocableIn(ctx context.Context, db bun.IDB, propertyIDs []uuid.UUID, from, to period.Date) ([]Bill, error) {
	var out []Bill
	if len(propertyIDs) == 0 {
		return out, nil
	}
	q := db.NewSelect().Model(&out).Where("property_id ?", database.In(propertyIDs)).Where("allocable").
		Where("bill_date >= ?", from).Where("bill_date <= ?", to).Order("bill_date", "id")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("allocable bills: %w", err)
	}
	return out, nil
}

// PaidSum is what a property's bills of one category and currency paid in
// a period came to.
type PaidSum struct {
	PropertyID uuid.UUID    `bun:"property_id"`
	Category   string       `bun:"category"`
	Currency   string       `bun:"currency"`
	Amount     money.Amount `bun:"amount"`
}

// PaidIn sums, through db, the workspace's bills paid from..to (both
// inclusive) by property, category and currency, over one property when
// propertyID is set: the costs of a cash-basis tax year (modules/taxyear),
// which counts a cost when it is paid.
func PaidIn(ctx context.Context, db bun.IDB, workspaceID int64, propertyID *uuid.UUID, from, to period.Date) ([]PaidSum, error) {
	var out []PaidSum
	q := db.NewSelect().TableExpr("bills").ColumnExpr("property_id, category, currency").
		ColumnExpr("CAST(SUM(amount_minor) AS BIGINT) AS amount").
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("paid_on >= ?", from).Where("paid_on <= ?", to).
		GroupExpr("property_id, category, currency").OrderExpr("property_id, category, currency")
	if propertyID != nil {
		q = q.Where("property_id = ?", *propertyID)
	}
	if err := database.Query(ctx, db, q, &out); err != nil {
		return nil, fmt.Errorf("bills paid: %w", err)
	}
	return out, nil
}
