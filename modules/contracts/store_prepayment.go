package contracts

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// updateTerms writes the contract's terms (a changed prepayment) inside db.
func updateTerms(ctx context.Context, db bun.IDB, id uuid.UUID, terms string, at time.Time) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*Contract)(nil)).Set("terms = ?", terms).Set("updated_at = ?", at).
		Where("id = ?", id)); err != nil {
		return fmt.Errorf("contract terms: %w", err)
	}
	return nil
}
