package assets

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// Store reads and writes assets and inspections; it holds every query of
// the module.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// asset returns, through db, the asset with the raw id under the property,
// database.ErrNotFound when there is none.
func (s *Store) asset(ctx context.Context, db bun.IDB, propertyID uuid.UUID, rawID string) (*Asset, error) {
	return database.Get[Asset](ctx, db, rawID, []database.Parent{database.Under("property_id", propertyID)})
}

// assets returns one page of the property's assets, oldest first, filtered
// by category and condition.
func (s *Store) assets(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Asset, listing.Result, error) {
	var list []Asset
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	if v := q.Get("category"); v != "" {
		sel = sel.Where("category = ?", v)
	}
	if v := q.Get("condition"); v != "" {
		sel = sel.Where("condition = ?", v)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("assets: %w", err)
	}
	return list, res, nil
}

// assetNames returns the id and name of those of ids that are assets of
// the property.
func (s *Store) assetNames(ctx context.Context, db bun.IDB, propertyID uuid.UUID, ids []uuid.UUID) ([]Asset, error) {
	var list []Asset
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Column("id", "name").Where("property_id = ?", propertyID).
		Where("id ?", database.In(ids))); err != nil {
		return nil, fmt.Errorf("assets of inspection: %w", err)
	}
	return list, nil
}

func (s *Store) insertAsset(ctx context.Context, db bun.IDB, a *Asset) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(a)); err != nil {
		return fmt.Errorf("insert asset: %w", err)
	}
	return nil
}

func (s *Store) updateAsset(ctx context.Context, db bun.IDB, a *Asset) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model(a).ExcludeColumn("id", "workspace_id", "property_id", "created_at").
		Where("id = ?", a.ID)); err != nil {
		return fmt.Errorf("update asset: %w", err)
	}
	return nil
}

func (s *Store) deleteAsset(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Asset)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("delete asset: %w", err)
	}
	return nil
}

// setCondition records the condition an inspection found the asset in.
func (s *Store) setCondition(ctx context.Context, db bun.IDB, id uuid.UUID, condition string, at time.Time) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*Asset)(nil)).Set("condition = ?", condition).
		Set("updated_at = ?", at).Where("id = ?", id)); err != nil {
		return fmt.Errorf("asset condition: %w", err)
	}
	return nil
}

// inspection returns, through db, the inspection with the raw id under
// the parents given, database.ErrNotFound when there is none.
func (s *Store) inspection(ctx context.Context, db bun.IDB, rawID string, parents []database.Parent) (*Inspection, error) {
	return database.Get[Inspection](ctx, db, rawID, parents)
}

// inspections returns one page of the property's inspections, oldest
// first, filtered by contract and kind (listing.UUID checked the id).
func (s *Store) inspections(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Inspection, listing.Result, error) {
	var list []Inspection
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	if id, err := uuid.Parse(q.Get("contract_id")); err == nil {
		sel = sel.Where("contract_id = ?", id)
	}
	if v := q.Get("kind"); v != "" {
		sel = sel.Where("kind = ?", v)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("inspections: %w", err)
	}
	return list, res, nil
}

// inspectionKinds returns the kinds of the contract's inspections.
func (s *Store) inspectionKinds(ctx context.Context, db bun.IDB, contractID uuid.UUID) ([]string, error) {
	var kinds []string
	if err := database.Query(ctx, db, db.NewSelect().Model((*Inspection)(nil)).Column("kind").Where("contract_id = ?", contractID), &kinds); err != nil {
		return nil, fmt.Errorf("inspections of contract: %w", err)
	}
	return kinds, nil
}

// inspectionsOf returns the contract's inspections (a check-in and a
// check-out at most).
func (s *Store) inspectionsOf(ctx context.Context, db bun.IDB, contractID uuid.UUID) ([]Inspection, error) {
	var list []Inspection
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("contract_id = ?", contractID)); err != nil {
		return nil, fmt.Errorf("inspections of contract: %w", err)
	}
	return list, nil
}

// insertInspection writes ins; the caller tells a second inspection of the
// same kind by database.IsUniqueViolation.
func (s *Store) insertInspection(ctx context.Context, db bun.IDB, ins *Inspection) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(ins)); err != nil {
		return fmt.Errorf("insert inspection: %w", err)
	}
	return nil
}

// checkIn returns the contract's check-in, nil when it has none.
func (s *Store) checkIn(ctx context.Context, db bun.IDB, contractID uuid.UUID) (*Inspection, error) {
	ins := new(Inspection)
	err := database.Select(ctx, db, db.NewSelect().Model(ins).Where("contract_id = ?", contractID).Where("kind = ?", CheckIn))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("check-in: %w", err)
	}
	return ins, nil
}
