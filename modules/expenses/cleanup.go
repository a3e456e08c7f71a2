package expenses

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/fault"
)

var errHasCharges = fault.Conflict("has_charges",
	"The property has charges; money records are never deleted silently.")

// propertyCleanup answers the properties module when a property is about
// to be deleted: refuse while it has charges, else delete its expenses
// (deleted ones included) in the same transaction.
type propertyCleanup struct{ store *Store }

func newPropertyCleanup(store *Store) propertyCleanup { return propertyCleanup{store: store} }

func (p propertyCleanup) PropertyDeleting(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	has, err := p.store.propertyHasCharges(ctx, tx, propertyID)
	if err != nil {
		return err
	}
	if has {
		return errHasCharges
	}
	return p.store.deleteExpensesOf(ctx, tx, propertyID)
}
