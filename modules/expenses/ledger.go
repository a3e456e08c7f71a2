package expenses

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Ledger is the payments module as the charges see it. The expenses module
// calls it inside every transaction that creates charges, so that a
// property's unallocated credit is used on them before the transaction
// commits. It is optional: without the payments module charges are created
// as before.
type Ledger interface {
	// ChargesCreated runs in tx, which holds the property's lock, after
	// charges of the property were inserted.
	ChargesCreated(ctx context.Context, tx bun.IDB, propertyID uuid.UUID, charges []Charge) error
	// ChargeEnteredPaid runs in tx after a manual charge entered with
	// status paid was inserted unpaid: the ledger records the payment that
	// settles it, so that paid_amount stays the sum of allocations.
	ChargeEnteredPaid(ctx context.Context, tx bun.IDB, c *Charge) error
}

// chargesCreated journals new charges and hands them to the ledger, when
// there is one.
func (s *Service) chargesCreated(ctx context.Context, tx bun.IDB, propertyID uuid.UUID, charges []Charge) error {
	if err := s.bookCharges(ctx, tx, charges); err != nil {
		return err
	}
	if s.ledger == nil || len(charges) == 0 {
		return nil
	}
	return s.ledger.ChargesCreated(ctx, tx, propertyID, charges)
}
