package oidc

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	gooidc "github.com/coreos/go-oidc/v3/oidc"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
)

// Service runs the sign-in: start, callback, exchange.
type Service struct {
	cfg       Config
	providers map[string]*provider
	sealer    *sealer
	codeKey   []byte
	store     *Store
	accounts  *accounts.Service
	clock     clock.Clock
	log       *slog.Logger
}

// NewService builds the configured providers (none is contacted yet).
func NewService(cfg Config, store *Store, acc *accounts.Service, dir *reference.Directory, tokens *auth.Tokens, clk clock.Clock, log *slog.Logger) (*Service, error) {
	// A country the directory does not know would refuse every first
	// sign-in; say so at the start instead.
	for name, pc := range cfg.Providers {
		if _, ok := dir.Country(pc.Country); !ok {
			return nil, &config.Error{Key: "modules.oidc.providers." + name + ".country", Reason: fmt.Sprintf("%q is not an active country code", pc.Country)}
		}
	}
	sl, err := newSealer(tokens.DeriveKey("propman/oidc/flow-cookie/v1"))
	if err != nil {
		return nil, err
	}
	s := &Service{
		cfg: cfg, providers: map[string]*provider{}, sealer: sl, store: store, accounts: acc, clock: clk, log: log,
		codeKey: tokens.DeriveKey("propman/oidc/one-time-code/v1"),
	}
	client := &http.Client{Timeout: cfg.Timeout}
	for name, pc := range cfg.Providers {
		s.providers[name] = &provider{
			name: name, cfg: pc, client: client, now: clk.Now,
			redirectURL: cfg.PublicURL + "/api/v1/auth/oidc/" + name + "/callback",
		}
	}
	return s, nil
}

// Errors of the service.
var (
	ErrUnknownProvider = errors.New("no such identity provider")
	ErrUnavailable     = errors.New("the identity provider cannot be reached")
	ErrInvalidCode     = errors.New("invalid, expired or used one-time code")
	ErrInactive        = errors.New("the account is inactive")
)

// Refusal is a failed callback: Reason is the error value the web client
// receives (see openapi.yaml).
type Refusal struct {
	Reason string
	cause  error
}

func (r *Refusal) Error() string {
	if r.cause != nil {
		return r.Reason + ": " + r.cause.Error()
	}
	return r.Reason
}

func refuse(reason string, cause error) *Refusal { return &Refusal{Reason: reason, cause: cause} }

// Reasons a callback is refused.
const (
	ReasonAccessDenied     = "access_denied"
	ReasonProviderError    = "provider_error"
	ReasonInvalidState     = "invalid_state"
	ReasonExchangeFailed   = "exchange_failed"
	ReasonInvalidToken     = "invalid_token"
	ReasonInvalidNonce     = "invalid_nonce"
	ReasonEmailNotVerified = "email_not_verified"
	ReasonEmailInvalid     = "email_invalid"
	ReasonDomainNotAllowed = "domain_not_allowed"
	ReasonAccountInactive  = "account_inactive"
	ReasonUnavailable      = "unavailable"
)

func (s *Service) provider(name string) (*provider, error) {
	p, ok := s.providers[name]
	if !ok {
		return nil, ErrUnknownProvider
	}
	return p, nil
}

// Start begins a sign-in with the provider: the URL to send the browser
// to and the sealed flow for its cookie.
func (s *Service) Start(ctx context.Context, name string) (authURL, cookie string, err error) {
	p, err := s.provider(name)
	if err != nil {
		return "", "", err
	}
	d, err := p.discover(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "oidc discovery failed", "provider", p.name, "error", err)
		return "", "", ErrUnavailable
	}
	f := flow{
		Provider: p.name, State: randomToken(), Nonce: randomToken(), Verifier: oauth2.GenerateVerifier(),
		ExpiresMS: s.clock.Now().Add(s.cfg.FlowTTL).UnixMilli(),
	}
	if cookie, err = s.sealer.seal(f); err != nil {
		return "", "", err
	}
	return d.oauth.AuthCodeURL(f.State, gooidc.Nonce(f.Nonce), oauth2.S256ChallengeOption(f.Verifier)), cookie, nil
}

// CallbackInput is what the provider sent back through the browser, and
// the browser's flow cookie.
type CallbackInput struct {
	Cookie, State, Code, Error, Issuer string
}

// idClaims are the ID token's claims the sign-in reads.
type idClaims struct {
	Email string `json:"email"`
	// Some providers send "true" as a string.
	EmailVerified json.RawMessage `json:"email_verified"`
	Name          string          `json:"name"`
	Locale        string          `json:"locale"`
}

func (c idClaims) verified() bool {
	v := strings.Trim(string(c.EmailVerified), `"`)
	return v == "true"
}

// Callback checks what the provider sent and signs the user in: it
// returns the one-time code for the web client. A *Refusal says why not.
func (s *Service) Callback(ctx context.Context, name string, in CallbackInput) (string, error) {
	p, err := s.provider(name)
	if err != nil {
		return "", err
	}
	if in.Error != "" {
		if in.Error == "access_denied" {
			return "", refuse(ReasonAccessDenied, nil)
		}
		return "", refuse(ReasonProviderError, errors.New(in.Error))
	}
	f, err := s.sealer.open(in.Cookie)
	switch {
	case err != nil:
		return "", refuse(ReasonInvalidState, err)
	case f.Provider != p.name:
		return "", refuse(ReasonInvalidState, errors.New("flow started with another provider"))
	case s.clock.Now().UnixMilli() >= f.ExpiresMS:
		return "", refuse(ReasonInvalidState, errors.New("flow expired"))
	case subtle.ConstantTimeCompare([]byte(f.State), []byte(in.State)) != 1:
		return "", refuse(ReasonInvalidState, errors.New("state differs"))
	case in.Code == "":
		return "", refuse(ReasonInvalidState, errors.New("no code"))
	}
	d, err := p.discover(ctx)
	if err != nil {
		return "", refuse(ReasonUnavailable, err)
	}
	// RFC 9207: a provider that names itself must be the one we asked.
	if in.Issuer != "" && in.Issuer != p.cfg.Issuer {
		return "", refuse(ReasonInvalidState, errors.New("iss differs"))
	}
	tok, err := d.oauth.Exchange(p.context(ctx), in.Code, oauth2.VerifierOption(f.Verifier))
	if err != nil {
		return "", refuse(ReasonExchangeFailed, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return "", refuse(ReasonInvalidToken, errors.New("no id_token"))
	}
	idt, err := d.verifier.Verify(p.context(ctx), raw)
	if err != nil {
		return "", refuse(ReasonInvalidToken, err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(f.Nonce)) != 1 {
		return "", refuse(ReasonInvalidNonce, nil)
	}
	if idt.AccessTokenHash != "" {
		if err := idt.VerifyAccessToken(tok.AccessToken); err != nil {
			return "", refuse(ReasonInvalidToken, err)
		}
	}
	var claims idClaims
	if err := idt.Claims(&claims); err != nil {
		return "", refuse(ReasonInvalidToken, err)
	}
	if claims.Email == "" || !claims.verified() {
		return "", refuse(ReasonEmailNotVerified, nil)
	}
	email := accounts.NormalizeEmail(claims.Email)
	if !p.allows(email) {
		return "", refuse(ReasonDomainNotAllowed, nil)
	}
	u, created, err := s.accounts.SignInExternal(ctx, accounts.ExternalUser{
		Email: email, Name: claims.Name, Locale: claims.Locale, CountryCode: p.cfg.Country,
	})
	var fe *accounts.FieldError
	switch {
	case errors.Is(err, accounts.ErrInactive):
		return "", refuse(ReasonAccountInactive, nil)
	case errors.As(err, &fe):
		return "", refuse(ReasonEmailInvalid, fmt.Errorf("%v", fe.Details))
	case err != nil:
		return "", err
	}
	code := randomToken()
	now := s.clock.Now()
	if err := s.store.SaveCode(ctx, &Code{
		CodeHash: s.codeHash(code), UserID: u.ID, Provider: p.name,
		ExpiresMS: now.Add(CodeValidity).UnixMilli(), CreatedMS: now.UnixMilli(),
	}); err != nil {
		return "", err
	}
	s.log.InfoContext(ctx, "oidc sign-in", "provider", p.name, "user", u.ID, "created", created)
	return code, nil
}

// Exchange turns a one-time code into a token, once.
func (s *Service) Exchange(ctx context.Context, code string) (string, error) {
	c, err := s.store.TakeCode(ctx, s.codeHash(code), s.clock.Now().UnixMilli())
	if err != nil {
		return "", err
	}
	token, err := s.accounts.IssueToken(ctx, c.UserID)
	if errors.Is(err, accounts.ErrInactive) {
		return "", ErrInactive
	}
	return token, err
}

// codeHash is the keyed hash kept instead of a one-time code: a database
// dump alone does not sign anyone in.
func (s *Service) codeHash(code string) string {
	m := hmac.New(sha256.New, s.codeKey)
	m.Write([]byte(code))
	return hex.EncodeToString(m.Sum(nil))
}

// webURL is where the callback sends the browser: the configured page
// with the values added to its query.
// FlowTTL is how long a sign-in may take from start to callback: the
// flow cookie's lifetime.
func (s *Service) FlowTTL() time.Duration { return s.cfg.FlowTTL }

// WebURL is the web app's sign-in page with values in its query: where
// the callback sends the browser, with a one-time code or the refusal.
func (s *Service) WebURL(values url.Values) string { return s.webURL(values) }

func (s *Service) webURL(values url.Values) string {
	u, _ := url.Parse(s.cfg.WebURL) // checked at start
	q := u.Query()
	for k, v := range values {
		q[k] = v
	}
	u.RawQuery = q.Encode()
	return u.String()
}
