package documents

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// Store reads and writes document rows.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// errNotFound means no document matched.
var errNotFound = errors.New("document not found")

// Insert adds d.
func (s *Store) Insert(ctx context.Context, db bun.IDB, d *Document) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(d)); err != nil {
		return fmt.Errorf("insert document: %w", err)
	}
	return nil
}

// ByID returns the document id of the property.
func (s *Store) ByID(ctx context.Context, propertyID, id uuid.UUID) (*Document, error) {
	d := new(Document)
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(d).Where("id = ?", id).Where("property_id = ?", propertyID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("document by id: %w", err)
	}
	return d, nil
}

// List returns one page of the property's documents in creation order,
// filtered by category and contract_id, and how many match.
func (s *Store) List(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Document, listing.Result, error) {
	var list []Document
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	if c := q.Get("category"); c != "" {
		sel = sel.Where("category = ?", c)
	}
	if c := q.Get("contract_id"); c != "" {
		id, err := uuid.Parse(c)
		if err != nil {
			return nil, listing.Result{}, fmt.Errorf("contract_id filter: %w", err)
		}
		sel = sel.Where("contract_id = ?", id)
	}
	total, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list documents: %w", err)
	}
	return list, total, nil
}

// Shared returns one page of the property's documents shared with the
// tenant of contractID, optionally of one category: those of the contract
// and, when withProperty, those of no contract.
func (s *Store) Shared(ctx context.Context, propertyID, contractID uuid.UUID, withProperty bool, q listing.Query) ([]Document, listing.Result, error) {
	var list []Document
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", propertyID).Where("shared_with_tenant")
	if c := q.Get("category"); c != "" {
		sel = sel.Where("category = ?", c)
	}
	if withProperty {
		sel = sel.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("contract_id = ?", contractID).WhereOr("contract_id IS NULL")
		})
	} else {
		sel = sel.Where("contract_id = ?", contractID)
	}
	total, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list shared documents: %w", err)
	}
	return list, total, nil
}

// Update writes title, category, shared_with_tenant and updated_at of d.
func (s *Store) Update(ctx context.Context, db bun.IDB, d *Document) error {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model(d).Column("title", "category", "shared_with_tenant", "updated_at").WherePK())
	if err != nil {
		return fmt.Errorf("update document: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotFound
	}
	return nil
}

// Delete removes the row of d; errNotFound when it was already gone.
func (s *Store) Delete(ctx context.Context, db bun.IDB, d *Document) error {
	res, err := database.Exec(ctx, db, db.NewDelete().Model((*Document)(nil)).Where("id = ?", d.ID))
	if err != nil {
		return fmt.Errorf("delete document: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNotFound
	}
	return nil
}

// Existing returns which of ids have a row.
func (s *Store) Existing(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]bool, error) {
	out := make(map[uuid.UUID]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var found []uuid.UUID
	if err := database.Query(ctx, s.db, s.db.NewSelect().Model((*Document)(nil)).Column("id").Where("id ?", database.In(ids)), &found); err != nil {
		return nil, fmt.Errorf("documents by id: %w", err)
	}
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}

// deleteOfProperty removes the property's rows inside tx and returns their
// ids.
func deleteOfProperty(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	if err := database.Query(ctx, tx, tx.NewSelect().Model((*Document)(nil)).Column("id").Where("property_id = ?", propertyID), &ids); err != nil {
		return nil, fmt.Errorf("documents of property: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Document)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return nil, fmt.Errorf("delete documents of property: %w", err)
	}
	return ids, nil
}

// documentsAmong returns, through db, the documents of the property among
// ids, in no order.
func documentsAmong(ctx context.Context, db bun.IDB, propertyID uuid.UUID, ids []uuid.UUID) ([]Document, error) {
	var list []Document
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("property_id = ?", propertyID).
		Where("id ?", database.In(ids))); err != nil {
		return nil, fmt.Errorf("documents of property: %w", err)
	}
	return list, nil
}
