package auth

import (
	"strings"
	"sync"
	"time"
)

// maxVerified bounds the verified-token cache.
const maxVerified = 8192

// verified remembers tokens whose signature and claims were checked, until
// they expire: a client sends the same token with every request, and
// checking it again (base64, JSON of header and claims, HMAC) was a fifth
// of an authenticated request's CPU. Only what Parse accepted is kept; the
// token version and the user's state are still checked on every request
// (Guard.Authenticate, through the principal).
type verified struct {
	mu      sync.RWMutex
	entries map[string]verifiedEntry
}

type verifiedEntry struct {
	claims  Claims
	expires time.Time
}

// get reports whether raw was verified; its claims when it has not expired
// at now, nil when it has (the caller answers ErrExpired, as Parse would:
// expired from exp plus the leeway on, exactly as the jwt parser decides).
func (v *verified) get(raw string, now time.Time) (c *Claims, known bool) {
	v.mu.RLock()
	e, ok := v.entries[raw]
	v.mu.RUnlock()
	if !ok {
		return nil, false
	}
	if !now.Before(e.expires) {
		v.mu.Lock()
		delete(v.entries, raw)
		v.mu.Unlock()
		return nil, true
	}
	claims := e.claims
	return &claims, true
}

// put keeps c for raw. raw may point into a request's reused buffer: the
// key is a copy. When the cache is full an arbitrary entry makes room.
func (v *verified) put(raw string, c *Claims) {
	if c.ExpiresAt == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.entries == nil {
		v.entries = make(map[string]verifiedEntry)
	}
	if len(v.entries) >= maxVerified {
		for k := range v.entries {
			delete(v.entries, k)
			break
		}
	}
	v.entries[strings.Clone(raw)] = verifiedEntry{claims: *c, expires: c.ExpiresAt.Add(leeway)}
}
