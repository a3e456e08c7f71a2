// Package auth issues and checks propman's JWT access tokens and guards the
// routes that need a signed-in user.
package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
)

// MinSecretLength is the shortest HMAC key propman accepts, in bytes.
const MinSecretLength = 32

// Claims are the claims of an access token.
type Claims struct {
	jwt.RegisteredClaims
	// Version is the user's token version when the token was made; a password
	// change raises it and so retires every older token.
	Version int `json:"ver"`
	// AuthTime is when the login that began this chain of refreshes happened.
	AuthTime int64 `json:"auth_time"`
}

// UserID is the subject as a number.
func (c *Claims) UserID() (int64, error) {
	return strconv.ParseInt(c.Subject, 10, 64)
}

// Errors of Parse; the guard words them for the client.
var (
	ErrExpired = errors.New("token expired")
	ErrInvalid = errors.New("token invalid")
)

// Tokens makes and checks HS256 tokens.
type Tokens struct {
	secret []byte
	ttl    time.Duration
	maxAge time.Duration
	issuer string
	clock  clock.Clock
	parser *jwt.Parser
	known  verified
}

// leeway is how far past its expiry a token is still accepted (clocks of
// several instances differ a little). The verified-token cache must agree
// with the parser on it, or a token would expire earlier when cached.
const leeway = 5 * time.Second

// NewTokens returns a token service; the secret must be at least 32 bytes.
func NewTokens(cfg config.Auth, secret []byte, clk clock.Clock) (*Tokens, error) {
	if len(secret) < MinSecretLength {
		return nil, fmt.Errorf("auth.secret: must be at least %d bytes", MinSecretLength)
	}
	return &Tokens{
		secret: secret, ttl: cfg.TTL, maxAge: cfg.MaxAge, issuer: cfg.Issuer, clock: clk,
		parser: jwt.NewParser(
			jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
			jwt.WithIssuer(cfg.Issuer),
			jwt.WithExpirationRequired(),
			jwt.WithIssuedAt(),
			jwt.WithTimeFunc(clk.Now),
			jwt.WithLeeway(leeway),
		),
	}, nil
}

// TTL is how long a token lives.
func (t *Tokens) TTL() time.Duration { return t.ttl }

// MaxAge is how long after a login its tokens may still be refreshed.
func (t *Tokens) MaxAge() time.Duration { return t.maxAge }

// DeriveKey returns a key for purpose (HMAC-SHA256 of purpose under the
// signing secret), so other secrets, such as the verification-code key,
// follow the one configured secret without reusing it directly.
func (t *Tokens) DeriveKey(purpose string) []byte {
	m := hmac.New(sha256.New, t.secret)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// Issue signs a token for the user.
func (t *Tokens) Issue(userID int64, version int, authTime time.Time) (string, error) {
	now := t.clock.Now()
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	claims := Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   strconv.FormatInt(userID, 10),
			Issuer:    t.issuer,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(t.ttl)),
			ID:        base64.RawURLEncoding.EncodeToString(id),
		},
		Version:  version,
		AuthTime: authTime.Unix(),
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.secret)
}

// Parse checks a token's signature, algorithm, issuer and times.
func (t *Tokens) Parse(raw string) (*Claims, error) {
	if c, known := t.known.get(raw, t.clock.Now()); known {
		if c == nil {
			return nil, ErrExpired
		}
		return c, nil
	}
	var claims Claims
	_, err := t.parser.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return t.secret, nil })
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return nil, ErrExpired
		}
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if _, err := claims.UserID(); err != nil || claims.AuthTime <= 0 {
		return nil, ErrInvalid
	}
	t.known.put(raw, &claims)
	return &claims, nil
}

// SecretFileName is the generated secret kept beside the SQLite database.
const SecretFileName = "propman.secret"

// ResolveSecret returns the signing secret. A configured one must be at least
// 32 bytes. Without one, a SQLite installation generates a secret at first
// start and keeps it beside the database file (mode 0600); PostgreSQL refuses,
// because every instance behind a load balancer must share one secret.
func ResolveSecret(cfg *config.Config) (secret []byte, generated string, err error) {
	if cfg.Auth.Secret != "" {
		if len(cfg.Auth.Secret) < MinSecretLength {
			return nil, "", fmt.Errorf("auth.secret: must be at least %d bytes", MinSecretLength)
		}
		return []byte(cfg.Auth.Secret), "", nil
	}
	if cfg.Database.IsPostgres() {
		return nil, "", errors.New("auth.secret: required with PostgreSQL (set PROPMAN_AUTH_SECRET to at least 32 random bytes, the same on every instance)")
	}
	path, err := database.SQLitePath(cfg.Database.URL)
	if err != nil {
		return nil, "", err
	}
	file := filepath.Join(filepath.Dir(path), SecretFileName)
	if b, err := os.ReadFile(file); err == nil {
		s := strings.TrimSpace(string(b))
		if len(s) < MinSecretLength {
			return nil, "", fmt.Errorf("auth.secret: %s holds fewer than %d bytes", file, MinSecretLength)
		}
		return []byte(s), "", nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, "", fmt.Errorf("auth.secret: %w", err)
	}
	raw := make([]byte, 48)
	if _, err := rand.Read(raw); err != nil {
		return nil, "", fmt.Errorf("auth.secret: %w", err)
	}
	s := base64.RawURLEncoding.EncodeToString(raw)
	if err := os.MkdirAll(filepath.Dir(file), 0o750); err != nil {
		return nil, "", fmt.Errorf("auth.secret: %w", err)
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, "", fmt.Errorf("auth.secret: %w", err)
	}
	if _, err := f.WriteString(s + "\n"); err != nil {
		f.Close()
		return nil, "", fmt.Errorf("auth.secret: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, "", fmt.Errorf("auth.secret: %w", err)
	}
	return []byte(s), file, nil
}
