package violations

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// Store reads and writes violations; it holds every query of the module.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// get returns, through db, the violation with the raw id under the
// property: ErrNotFound for a malformed id, a missing one and another
// property's alike.
func (s *Store) get(ctx context.Context, db bun.IDB, propertyID uuid.UUID, rawID string) (*Violation, error) {
	v, err := database.Get[Violation](ctx, db, rawID, []database.Parent{database.Under("property_id", propertyID)})
	if errors.Is(err, database.ErrNotFound) {
		return nil, ErrNotFound
	}
	return v, err
}

func (s *Store) insert(ctx context.Context, db bun.IDB, v *Violation) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(v)); err != nil {
		return fmt.Errorf("insert violation: %w", err)
	}
	return nil
}

func (s *Store) updateStatus(ctx context.Context, db bun.IDB, v *Violation) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model(v).Column("status", "note", "updated_at").Where("id = ?", v.ID)); err != nil {
		return fmt.Errorf("update violation: %w", err)
	}
	return nil
}

// list returns one page of the property's violations, oldest first,
// filtered by status and contract (listing.OneOf and listing.UUID checked
// both).
func (s *Store) list(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Violation, listing.Result, error) {
	var list []Violation
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	if v := q.Get("status"); v != "" {
		sel = sel.Where("status = ?", v)
	}
	if id, err := uuid.Parse(q.Get("contract_id")); err == nil {
		sel = sel.Where("contract_id = ?", id)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("violations: %w", err)
	}
	return list, res, nil
}
