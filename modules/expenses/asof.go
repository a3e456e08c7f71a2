package expenses

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// ChargesAtQuery selects (id, amount_minor) of the property's charges (of
// the contract, when contractID is set) as they stood at the instant at:
// made at or before it and not cancelled by then. A cancelled charge
// without a cancellation time (entered cancelled) counts as never owed.
// Another module (payments' balance after a payment) joins its own
// allocations to it.
func ChargesAtQuery(db bun.IDB, propertyID uuid.UUID, contractID *uuid.UUID, at time.Time) *bun.SelectQuery {
	q := db.NewSelect().Model((*Charge)(nil)).Column("id", "amount_minor").
		Where("property_id = ?", propertyID).Where("created_at <= ?", at).
		Where("(status <> ? OR (cancelled_at IS NOT NULL AND cancelled_at > ?))", Cancelled, at)
	if contractID != nil {
		q = q.Where("contract_id = ?", *contractID)
	}
	return q
}
