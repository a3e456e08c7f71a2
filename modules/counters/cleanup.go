package counters

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// propertyCleanup answers the properties module when a property is about
// to be deleted: its counters go, with their readings (the expenses
// module refuses first when the property has charges, metered ones too).
type propertyCleanup struct{}

func newPropertyCleanup() propertyCleanup { return propertyCleanup{} }

func (propertyCleanup) PropertyDeleting(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Counter)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return fmt.Errorf("delete counters of property: %w", err)
	}
	return nil
}
