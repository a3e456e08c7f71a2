// Package testop runs a real OpenID provider (zitadel/oidc's pkg/op) inside
// a test process, on an in-memory storage that holds one client and the
// user who signs in next. Its login step needs no form: the test says who
// the user is, and the browser passing through /login is that user.
package testop

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// User is who signs in at the provider.
type User struct {
	Subject       string
	Email         string
	EmailVerified bool
	Name          string
	Locale        string
}

// Provider is a running OpenID provider.
type Provider struct {
	Issuer       string
	ClientID     string
	ClientSecret string

	server  *httptest.Server
	storage *storage
	down    atomic.Bool
	op      *op.Provider
}

// Start runs a provider on a local port until t ends, with one confidential
// client (ClientID, ClientSecret) that may redirect to redirectURI.
func Start(t testing.TB, redirectURI string) *Provider {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &Provider{ClientID: "propman", ClientSecret: rand.Text()}
	var handler http.Handler
	p.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(p.server.Close)
	p.Issuer = p.server.URL
	p.storage = &storage{
		key:      key,
		keyID:    "k1",
		requests: map[string]*authRequest{},
		codes:    map[string]string{},
		client: &client{
			id: p.ClientID, secret: p.ClientSecret, redirectURIs: []string{redirectURI},
			loginURL: p.Issuer + "/login", idTokenLifetime: 5 * time.Minute,
		},
	}
	p.op, err = op.NewProvider(&op.Config{
		CryptoKey: sha256.Sum256([]byte(rand.Text())), CodeMethodS256: true, AuthMethodPost: true,
	}, p.storage, op.StaticIssuer(p.Issuer), op.WithAllowInsecure())
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/login", p.login)
	mux.Handle("/", p.op)
	handler = mux
	return p
}

// SetDown makes the provider answer every request 503 (or serve again).
func (p *Provider) SetDown(down bool) { p.down.Store(down) }

// SignInAs makes u the user of the next sign-ins.
func (p *Provider) SignInAs(u User) {
	p.storage.mu.Lock()
	defer p.storage.mu.Unlock()
	p.storage.user = u
}

// SetIDTokenLifetime sets how long the ID tokens issued from now on last.
func (p *Provider) SetIDTokenLifetime(d time.Duration) {
	p.storage.mu.Lock()
	defer p.storage.mu.Unlock()
	p.storage.client.idTokenLifetime = d
}

// login is the provider's login page: it authenticates the pending
// request as the current user and goes on to the provider's callback,
// which redirects to the client with the code.
func (p *Provider) login(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("authRequestID")
	s := p.storage
	s.mu.Lock()
	req, ok := s.requests[id]
	if ok {
		req.subject = s.user.Subject
		req.authTime = time.Now()
		req.done = true
	}
	s.mu.Unlock()
	if !ok {
		http.Error(w, "unknown request", http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, op.AuthCallbackURL(p.op)(op.ContextWithIssuer(r.Context(), p.Issuer), id), http.StatusFound)
}

// storage is op.Storage in memory, as little of it as the authorization
// code flow needs.
type storage struct {
	mu       sync.Mutex
	key      *rsa.PrivateKey
	keyID    string
	client   *client
	user     User
	requests map[string]*authRequest
	codes    map[string]string // code -> request id
}

var errNotFound = errors.New("not found")

func (s *storage) CreateAuthRequest(_ context.Context, r *oidc.AuthRequest, _ string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := &authRequest{id: rand.Text(), req: *r, created: time.Now()}
	s.requests[req.id] = req
	return req, nil
}

func (s *storage) AuthRequestByID(_ context.Context, id string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.requests[id]; ok {
		return r, nil
	}
	return nil, errNotFound
}

func (s *storage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	id, ok := s.codes[code]
	s.mu.Unlock()
	if !ok {
		return nil, errNotFound
	}
	return s.AuthRequestByID(ctx, id)
}

func (s *storage) SaveAuthCode(_ context.Context, id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = id
	return nil
}

// DeleteAuthRequest runs once the code has been exchanged: the code dies
// with its request, so it cannot be used twice.
func (s *storage) DeleteAuthRequest(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.requests, id)
	for code, rid := range s.codes {
		if rid == id {
			delete(s.codes, code)
		}
	}
	return nil
}

func (s *storage) CreateAccessToken(context.Context, op.TokenRequest) (string, time.Time, error) {
	return rand.Text(), time.Now().Add(5 * time.Minute), nil
}

func (s *storage) CreateAccessAndRefreshTokens(context.Context, op.TokenRequest, string) (string, string, time.Time, error) {
	return "", "", time.Time{}, errors.New("no refresh tokens here")
}

func (s *storage) TokenRequestByRefreshToken(context.Context, string) (op.RefreshTokenRequest, error) {
	return nil, op.ErrInvalidRefreshToken
}

func (s *storage) TerminateSession(context.Context, string, string) error { return nil }

func (s *storage) RevokeToken(context.Context, string, string, string) *oidc.Error { return nil }

func (s *storage) GetRefreshTokenInfo(context.Context, string, string) (string, string, error) {
	return "", "", op.ErrInvalidRefreshToken
}

func (s *storage) SigningKey(context.Context) (op.SigningKey, error) {
	return signingKey{id: s.keyID, key: s.key}, nil
}

func (s *storage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}

func (s *storage) KeySet(context.Context) ([]op.Key, error) {
	return []op.Key{publicKey{id: s.keyID, key: &s.key.PublicKey}}, nil
}

func (s *storage) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != s.client.id {
		return nil, errNotFound
	}
	c := *s.client
	return &c, nil
}

func (s *storage) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	if id != s.client.id || secret != s.client.secret {
		return errors.New("wrong client credentials")
	}
	return nil
}

func (s *storage) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil
}

// SetUserinfoFromRequest fills the ID token's claims (the client asks for
// them in the ID token, see client.IDTokenUserinfoClaimsAssertion).
func (s *storage) SetUserinfoFromRequest(_ context.Context, info *oidc.UserInfo, _ op.IDTokenRequest, scopes []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.user
	for _, sc := range scopes {
		switch sc {
		case oidc.ScopeOpenID:
			info.Subject = u.Subject
		case oidc.ScopeEmail:
			info.Email = u.Email
			info.EmailVerified = oidc.Bool(u.EmailVerified)
		case oidc.ScopeProfile:
			info.Name = u.Name
			if u.Locale != "" {
				info.Locale = oidc.NewLocale(mustTag(u.Locale))
			}
		}
	}
	return nil
}

func (s *storage) SetUserinfoFromToken(context.Context, *oidc.UserInfo, string, string, string) error {
	return errors.New("no userinfo endpoint here")
}

func (s *storage) SetIntrospectionFromToken(context.Context, *oidc.IntrospectionResponse, string, string, string) error {
	return errors.New("no introspection here")
}

func (s *storage) GetPrivateClaimsFromScopes(context.Context, string, string, []string) (map[string]any, error) {
	return nil, nil
}

func (s *storage) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errNotFound
}

func (s *storage) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errors.New("no JWT profile here")
}

func (s *storage) Health(context.Context) error { return nil }

type authRequest struct {
	id       string
	req      oidc.AuthRequest
	created  time.Time
	subject  string
	authTime time.Time
	done     bool
}

func (a *authRequest) GetID() string                      { return a.id }
func (a *authRequest) GetACR() string                     { return "" }
func (a *authRequest) GetAMR() []string                   { return []string{"pwd"} }
func (a *authRequest) GetAudience() []string              { return []string{a.req.ClientID} }
func (a *authRequest) GetAuthTime() time.Time             { return a.authTime }
func (a *authRequest) GetClientID() string                { return a.req.ClientID }
func (a *authRequest) GetNonce() string                   { return a.req.Nonce }
func (a *authRequest) GetRedirectURI() string             { return a.req.RedirectURI }
func (a *authRequest) GetScopes() []string                { return a.req.Scopes }
func (a *authRequest) GetState() string                   { return a.req.State }
func (a *authRequest) GetSubject() string                 { return a.subject }
func (a *authRequest) Done() bool                         { return a.done }
func (a *authRequest) GetResponseMode() oidc.ResponseMode { return a.req.ResponseMode }
func (a *authRequest) GetResponseType() oidc.ResponseType { return a.req.ResponseType }
func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge {
	if a.req.CodeChallenge == "" {
		return nil
	}
	return &oidc.CodeChallenge{Challenge: a.req.CodeChallenge, Method: a.req.CodeChallengeMethod}
}

type client struct {
	id, secret      string
	redirectURIs    []string
	loginURL        string
	idTokenLifetime time.Duration
}

func (c *client) GetID() string                       { return c.id }
func (c *client) RedirectURIs() []string              { return c.redirectURIs }
func (c *client) PostLogoutRedirectURIs() []string    { return nil }
func (c *client) ApplicationType() op.ApplicationType { return op.ApplicationTypeWeb }
func (c *client) AuthMethod() oidc.AuthMethod         { return oidc.AuthMethodBasic }
func (c *client) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (c *client) GrantTypes() []oidc.GrantType         { return []oidc.GrantType{oidc.GrantTypeCode} }
func (c *client) AccessTokenType() op.AccessTokenType  { return op.AccessTokenTypeBearer }
func (c *client) IDTokenLifetime() time.Duration       { return c.idTokenLifetime }
func (c *client) DevMode() bool                        { return true }
func (c *client) IsScopeAllowed(string) bool           { return false }
func (c *client) IDTokenUserinfoClaimsAssertion() bool { return true }
func (c *client) ClockSkew() time.Duration             { return 0 }
func (c *client) LoginURL(id string) string {
	return c.loginURL + "?authRequestID=" + url.QueryEscape(id)
}
func (c *client) RestrictAdditionalIdTokenScopes() func([]string) []string { //nolint:revive // the name is op.Client's
	return func(s []string) []string { return s }
}
func (c *client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

type signingKey struct {
	id  string
	key *rsa.PrivateKey
}

func (k signingKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k signingKey) Key() any                                    { return k.key }
func (k signingKey) ID() string                                  { return k.id }

type publicKey struct {
	id  string
	key *rsa.PublicKey
}

func (k publicKey) ID() string                         { return k.id }
func (k publicKey) Algorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k publicKey) Use() string                        { return "sig" }
func (k publicKey) Key() any                           { return k.key }

func mustTag(s string) language.Tag { return language.MustParse(s) }
