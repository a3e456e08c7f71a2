package expenses

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/database"
)

var errHasCharges = apierror.Conflict("has_charges",
	"The property has charges; money records are never deleted silently.")

// propertyCleanup answers the properties module when a property is about
// to be deleted: refuse while it has charges, else delete its expenses
// (deleted ones included) in the same transaction.
type propertyCleanup struct{}

func newPropertyCleanup() propertyCleanup { return propertyCleanup{} }

func (propertyCleanup) PropertyDeleting(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	has, err := database.Exists(ctx, tx, tx.NewSelect().Model((*Charge)(nil)).Where("property_id = ?", propertyID))
	if err != nil {
		return fmt.Errorf("charges of property: %w", err)
	}
	if has {
		return errHasCharges
	}
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Expense)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return fmt.Errorf("delete expenses of property: %w", err)
	}
	return nil
}
