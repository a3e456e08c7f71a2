package contragents

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
)

// User is a module whose records refer to contragents (contracts name a
// tenant, payments a payer). The contragents module does not know those
// records; it asks every User, inside the transaction that deletes a
// contragent, whether the deletion may go on. A User refuses by returning
// an *apierror.Error, normally apierror.Conflict("in_use", ...).
type User interface {
	ContragentDeleting(ctx context.Context, tx bun.Tx, contragentID uuid.UUID) error
}

// ProvideUser registers a constructor of a User with fx (value group
// "contragent_users").
func ProvideUser(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(User)), fx.ResultTags(`group:"contragent_users"`)))
}

// Service holds the rules of contragents and the access check every route
// under /contragents/{contragentId} goes through.
type Service struct {
	db    *bun.DB
	store *Store
	clock clock.Clock
	users []User
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB    *bun.DB
	Store *Store
	Clock clock.Clock
	Users []User `group:"contragent_users"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: p.Store, clock: p.Clock, users: p.Users}
}

// Authorize returns the contragent with the raw id when p may see, change
// and use it: 404 not_found when the id is not a UUID or no contragent has
// it, 403 forbidden when it belongs to someone else and p is not an admin.
func (s *Service) Authorize(ctx context.Context, p auth.Principal, rawID string) (*Contragent, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, apierror.NotFound("Contragent not found.")
	}
	c, err := s.store.ByID(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, apierror.NotFound("Contragent not found.")
	}
	if err != nil {
		return nil, err
	}
	if c.OwnerID != p.UserID && !p.IsAdmin() {
		return nil, apierror.Forbidden("This contragent belongs to another user.")
	}
	return c, nil
}
