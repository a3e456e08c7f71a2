package counters

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// propertyCleanup answers the properties module when a property is about
// to be deleted: its counters go, with their readings (the expenses
// module refuses first when the property has charges, metered ones too).
type propertyCleanup struct{}

func newPropertyCleanup() propertyCleanup { return propertyCleanup{} }

func (propertyCleanup) PropertyDeleting(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	return deleteCountersOf(ctx, tx, propertyID)
}
