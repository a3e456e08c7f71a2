package proposals

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
)

// pageCache keeps the public pages this instance sent, so that a page is
// read from the database once per ttl however often it is asked for: the
// page is the cheapest request of the module and the one strangers send
// most. Changes made through this instance drop the page at once; other
// instances see them within ttl. A sync.Map, not a map under a RWMutex:
// its reads of a key written once take no lock and write no shared
// counter, which two cores busy with one page felt.
type pageCache struct {
	ttl time.Duration
	m   sync.Map // slug -> *cachedPage
	n   atomic.Int64
}

type cachedPage struct {
	p     httpserver.Payload
	until time.Time
	none  bool // no published proposal has the slug
}

// maxCachedPages bounds the cache against a walk of random slugs.
const maxCachedPages = 10_000

func newPageCache(ttl time.Duration) *pageCache { return &pageCache{ttl: ttl} }

func (c *pageCache) get(slug string, now time.Time) (*cachedPage, bool) {
	v, ok := c.m.Load(slug)
	if !ok {
		return nil, false
	}
	e := v.(*cachedPage)
	if !now.Before(e.until) {
		return nil, false
	}
	return e, true
}

func (c *pageCache) put(slug string, e *cachedPage, now time.Time) {
	if c.ttl <= 0 {
		return
	}
	if c.n.Add(1) > maxCachedPages {
		c.m.Clear()
		c.n.Store(1)
	}
	e.until = now.Add(c.ttl)
	// The slug came from the request's buffer: keep a copy.
	c.m.Store(strings.Clone(slug), e)
}

func (c *pageCache) forget(slug string) { c.m.Delete(slug) }

// validSlug reports whether s may be a slug, so that other strings cost no
// query and no cache entry.
func validSlug(s string) bool {
	if len(s) < 1 || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if b := s[i]; (b < 'a' || b > 'z') && (b < '0' || b > '9') {
			return false
		}
	}
	return true
}

func errNoPage() error { return fault.NotFound("Proposal not found.") }

// cached returns the page of slug when this instance holds it: found
// reports whether it knows the answer (hit), ok whether that is a page.
// Cached is the published page of the listing with slug, from the cache
// when it holds it (hit).
func (s *Service) Cached(slug string) (p httpserver.Payload, hit bool, err error) {
	return s.cached(slug)
}

func (s *Service) cached(slug string) (p httpserver.Payload, hit bool, err error) {
	if !validSlug(slug) {
		return httpserver.Payload{}, true, errNoPage()
	}
	e, ok := s.pages.get(slug, s.clock.Now())
	if !ok || e == nil {
		return httpserver.Payload{}, false, nil
	}
	if e.none {
		return httpserver.Payload{}, true, errNoPage()
	}
	return e.p, true, nil
}

// Page returns the public page of the published proposal with slug.
func (s *Service) Page(ctx context.Context, slug string) (httpserver.Payload, error) {
	if p, hit, err := s.cached(slug); hit {
		return p, err
	}
	now := s.clock.Now()
	pr, err := s.store.bySlug(ctx, s.db, slug)
	if errors.Is(err, errNoRow) || (err == nil && pr.Status != Published) {
		s.pages.put(slug, &cachedPage{none: true}, now)
		return httpserver.Payload{}, errNoPage()
	}
	if err != nil {
		return httpserver.Payload{}, err
	}
	prop, err := s.props.Authorize(ctx, auth.InWorkspace(pr.WorkspaceID, pr.OwnerID), pr.PropertyID.String())
	if err != nil {
		return httpserver.Payload{}, err
	}
	if prop.Archived() {
		s.pages.put(slug, &cachedPage{none: true}, now)
		return httpserver.Payload{}, errNoPage()
	}
	p, err := httpserver.NewPayload(publicView(pr, prop))
	if err != nil {
		return httpserver.Payload{}, err
	}
	s.pages.put(slug, &cachedPage{p: p}, now)
	return p, nil
}
