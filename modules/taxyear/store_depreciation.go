package taxyear

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/database"
)

// basis reads the property's depreciation basis; ErrNoBasis when none.
func (s *Store) basis(ctx context.Context, propertyID uuid.UUID) (*Basis, error) {
	b := new(Basis)
	err := database.Query(ctx, s.db, s.db.NewSelect().Model(b).Where("property_id = ?", propertyID), b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoBasis
	}
	if err != nil {
		return nil, fmt.Errorf("depreciation basis: %w", err)
	}
	return b, nil
}

// putBasis inserts the basis or replaces the property's one, in one
// statement: concurrent writers of one property each leave a whole
// basis, the last one's.
func (s *Store) putBasis(ctx context.Context, b *Basis) error {
	q := s.db.NewInsert().Model(b).On("CONFLICT (property_id) DO UPDATE").
		Set("method = EXCLUDED.method, basis_minor = EXCLUDED.basis_minor, currency = EXCLUDED.currency, placed_on = EXCLUDED.placed_on").
		Set("completed_year = EXCLUDED.completed_year, rate_centi = EXCLUDED.rate_centi, updated_at = EXCLUDED.updated_at")
	if _, err := database.Exec(ctx, s.db, q); err != nil {
		return fmt.Errorf("depreciation basis: %w", err)
	}
	return nil
}

// deleteBasis removes the property's basis; ErrNoBasis when none.
func (s *Store) deleteBasis(ctx context.Context, propertyID uuid.UUID) error {
	res, err := database.Exec(ctx, s.db, s.db.NewDelete().Model((*Basis)(nil)).Where("property_id = ?", propertyID))
	if err != nil {
		return fmt.Errorf("depreciation basis: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNoBasis
	}
	return nil
}

// bases reads the workspace's bases (or the one property's), by property.
func (s *Store) bases(ctx context.Context, workspaceID int64, only *uuid.UUID) (map[uuid.UUID]*Basis, error) {
	var rows []Basis
	q := s.db.NewSelect().Model(&rows).Where("workspace_id = ?", database.Param{V: workspaceID})
	if only != nil {
		q = q.Where("property_id = ?", *only)
	}
	if err := database.Query(ctx, s.db, q, &rows); err != nil {
		return nil, fmt.Errorf("depreciation bases: %w", err)
	}
	out := make(map[uuid.UUID]*Basis, len(rows))
	for i := range rows {
		out[rows[i].PropertyID] = &rows[i]
	}
	return out, nil
}
