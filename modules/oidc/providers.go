package oidc

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	gooidc "github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// provider is one configured identity provider. Its discovery document is
// read on first use, not at start, so an unreachable provider fails its
// own sign-ins (503) and leaves the service and the other providers up.
type provider struct {
	name        string
	cfg         ProviderConfig
	redirectURL string
	client      *http.Client
	now         func() time.Time

	mu    sync.Mutex
	ready *discovered
	// failed is the last failed discovery: requests within retryAfter of
	// it fail at once instead of queueing on the mutex for a provider that
	// is down.
	failed   error
	failedAt time.Time
}

const retryAfter = 5 * time.Second

type discovered struct {
	oauth    oauth2.Config
	verifier *gooidc.IDTokenVerifier
}

// context carries the provider's HTTP client to go-oidc and oauth2.
func (p *provider) context(ctx context.Context) context.Context {
	ctx = gooidc.ClientContext(ctx, p.client)
	return context.WithValue(ctx, oauth2.HTTPClient, p.client)
}

// discover reads the provider's discovery document once; a failure is
// retried by the next request.
func (p *provider) discover(ctx context.Context) (*discovered, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ready != nil {
		return p.ready, nil
	}
	if p.failed != nil && p.now().Sub(p.failedAt) < retryAfter {
		return nil, p.failed
	}
	// go-oidc keeps only the client of this context (for the key set), not
	// its deadline.
	op, err := gooidc.NewProvider(p.context(ctx), p.cfg.Issuer)
	if err != nil {
		p.failed, p.failedAt = err, p.now()
		return nil, err
	}
	p.failed = nil
	p.ready = &discovered{
		oauth: oauth2.Config{
			ClientID: p.cfg.ClientID, ClientSecret: p.cfg.ClientSecret,
			Endpoint: op.Endpoint(), RedirectURL: p.redirectURL, Scopes: p.cfg.Scopes,
		},
		// Signature (keys from the provider's jwks_uri), issuer, audience =
		// our client id, and expiry by the service's clock.
		verifier: op.Verifier(&gooidc.Config{ClientID: p.cfg.ClientID, Now: p.now}),
	}
	return p.ready, nil
}

// allows reports whether the email's domain may sign in.
func (p *provider) allows(email string) bool {
	if len(p.cfg.Domains) == 0 {
		return true
	}
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return false
	}
	domain := strings.ToLower(email[at+1:])
	for _, d := range p.cfg.Domains {
		if domain == d {
			return true
		}
	}
	return false
}
