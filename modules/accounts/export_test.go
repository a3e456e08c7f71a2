package accounts

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
)

// Cache is the token guard's cache of users as an instance of its own
// would keep it, for the tests of cross-instance invalidation.
type Cache struct{ p *principals }

// NewCache returns the cache of a listening instance on db.
func NewCache(db *bun.DB, ttl time.Duration) *Cache {
	return &Cache{p: newPrincipals(NewStore(db), ttl, true)}
}

// Channel is the channel the cache listens on.
const Channel = usersChannel

// Principal is what the guard would read for userID.
func (c *Cache) Principal(ctx context.Context, userID int64) (auth.Principal, error) {
	return c.p.Principal(ctx, userID)
}

// Listening, Lost and Notified make the cache a database.Subscriber.
func (c *Cache) Listening()              { c.p.Listening() }
func (c *Cache) Lost()                   { c.p.Lost() }
func (c *Cache) Notified(payload string) { c.p.Notified(payload) }
