package contracts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// tenantGuard refuses the deletion of a contragent any contract names.
type tenantGuard struct{ store *Store }

func newTenantGuard(store *Store) tenantGuard { return tenantGuard{store: store} }

func (g tenantGuard) ContragentDeleting(ctx context.Context, tx bun.Tx, contragentID uuid.UUID) error {
	used, err := g.store.NamesTenant(ctx, tx, contragentID)
	if err != nil {
		return err
	}
	if used {
		return fault.Conflict("in_use", "A contract names this contragent; it cannot be deleted.")
	}
	return nil
}

// propertyCleanup refuses the deletion of a property with contracts that
// left draft, and deletes its drafts otherwise.
type propertyCleanup struct{ store *Store }

func newPropertyCleanup(store *Store) propertyCleanup { return propertyCleanup{store: store} }

func (p propertyCleanup) PropertyDeleting(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	has, err := p.store.HasSigned(ctx, tx, propertyID)
	if err != nil {
		return err
	}
	if has {
		return fault.Conflict("has_contracts", "The property has active or terminated contracts.")
	}
	return p.store.DeleteOfProperty(ctx, tx, propertyID)
}

// RentListener is a module told of every rent change (modules/notices
// writes the tenant), inside the transaction that records it, so both
// commit together or not at all. c is the contract as it was (its rent
// the one before the change), amount the rent from from on, ix the index
// the change follows (nil when none was given).
type RentListener interface {
	RentChanged(ctx context.Context, tx bun.Tx, c *Contract, amount money.Amount, from period.Date, ix *Index) error
}

// ProvideRentListener registers a constructor of a RentListener with fx.
func ProvideRentListener(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(RentListener)), fx.ResultTags(`group:"rent_listeners"`)))
}
