package accounts

import (
	"context"
	"errors"

	"github.com/propman/propman/platform/auth"
)

// principals answers the token guard: the current roles, token version and
// state of a token's user.
type principals struct {
	store *Store
}

// Principal returns the user as the guard needs it, or auth.ErrNoUser.
func (p principals) Principal(ctx context.Context, userID int64) (auth.Principal, error) {
	u, err := p.store.ByID(ctx, userID)
	if errors.Is(err, ErrNotFound) {
		return auth.Principal{}, auth.ErrNoUser
	}
	if err != nil {
		return auth.Principal{}, err
	}
	if !u.IsActive {
		return auth.Principal{}, auth.ErrNoUser
	}
	return auth.Principal{UserID: u.ID, Roles: u.Roles.List(), Version: u.TokenVersion, Record: u}, nil
}
