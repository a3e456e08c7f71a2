package proposals

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

// errNoRow means no row matched.
var errNoRow = errors.New("proposals: no row")

// Store reads and writes proposals and applications.
type Store struct{ db *bun.DB }

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// proposal returns, through db, the property's proposal with id.
func (s *Store) proposal(ctx context.Context, db bun.IDB, propertyID, id uuid.UUID, lock bool) (*Proposal, error) {
	p := new(Proposal)
	q := db.NewSelect().Model(p).Where("id = ?", id).Where("property_id = ?", propertyID)
	if lock && database.IsPostgres(db) {
		q = q.For("UPDATE")
	}
	err := database.Select(ctx, db, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRow
	}
	if err != nil {
		return nil, fmt.Errorf("proposal: %w", err)
	}
	return p, nil
}

// bySlug returns the proposal with slug.
func (s *Store) bySlug(ctx context.Context, db bun.IDB, slug string) (*Proposal, error) {
	p := new(Proposal)
	err := database.Select(ctx, db, db.NewSelect().Model(p).Where("slug = ?", slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRow
	}
	if err != nil {
		return nil, fmt.Errorf("proposal by slug: %w", err)
	}
	return p, nil
}

// list returns a page of the property's proposals in id order.
func (s *Store) list(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Proposal, listing.Result, error) {
	var out []Proposal
	sel := s.db.NewSelect().Model(&out).Where("property_id = ?", propertyID)
	if st := q.Get("status"); st != "" {
		sel = sel.Where("status = ?", st)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list proposals: %w", err)
	}
	return out, res, nil
}

// application returns, through db, the proposal's application with id,
// pending ones included.
func (s *Store) application(ctx context.Context, db bun.IDB, proposalID, id uuid.UUID) (*Application, error) {
	a := new(Application)
	err := database.Select(ctx, db, db.NewSelect().Model(a).Where("id = ?", id).Where("proposal_id = ?", proposalID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRow
	}
	if err != nil {
		return nil, fmt.Errorf("application: %w", err)
	}
	return a, nil
}

// applications returns a page of the proposal's confirmed applications in
// id order.
func (s *Store) applications(ctx context.Context, proposalID uuid.UUID, q listing.Query) ([]Application, listing.Result, error) {
	var out []Application
	sel := s.db.NewSelect().Model(&out).Where("proposal_id = ?", proposalID)
	if st := q.Get("status"); st != "" {
		sel = sel.Where("status = ?", st)
	} else {
		sel = sel.Where("status <> ?", Pending)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list applications: %w", err)
	}
	return out, res, nil
}
