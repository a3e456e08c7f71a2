package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// A scoped token proves a user for one purpose only (the cookie of the jobs
// UI under /admin/jobs): it is signed with a key derived for that purpose
// (DeriveKey), never with the access tokens' secret, so it is no bearer
// token of the API and a token of one purpose is none of another. It
// carries the user's token version, so a password change or a deactivation
// retires it as it retires the access tokens.

// scopedKey is the signing key of purpose's tokens.
func (t *Tokens) scopedKey(purpose string) []byte { return t.DeriveKey("scoped-token:" + purpose) }

// IssueScoped signs a token of purpose for the user, valid for ttl.
func (t *Tokens) IssueScoped(purpose string, userID int64, version int, authTime time.Time, ttl time.Duration) (string, time.Time, error) {
	now := t.clock.Now()
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	expires := now.Add(ttl)
	claims := Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   strconv.FormatInt(userID, 10),
			Issuer:    t.issuer,
			Audience:  jwt.ClaimStrings{purpose},
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(expires),
			ID:        base64.RawURLEncoding.EncodeToString(id),
		},
		Version:  version,
		AuthTime: authTime.Unix(),
	}
	raw, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.scopedKey(purpose))
	return raw, time.Unix(expires.Unix(), 0).UTC(), err
}

// ParseScoped checks a token of purpose as Parse checks an access token.
func (t *Tokens) ParseScoped(purpose, raw string) (*Claims, error) {
	var claims Claims
	_, err := t.parser.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return t.scopedKey(purpose), nil })
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return nil, ErrExpired
		}
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if _, err := claims.UserID(); err != nil || claims.AuthTime <= 0 || !slices.Equal(claims.Audience, jwt.ClaimStrings{purpose}) {
		return nil, ErrInvalid
	}
	return &claims, nil
}

// AuthenticateScoped checks a token of purpose (IssueScoped) and returns
// its user, as Authenticate does for an access token.
func (g *Guard) AuthenticateScoped(ctx context.Context, purpose, raw string) (Principal, error) {
	claims, err := g.tokens.ParseScoped(purpose, raw)
	if errors.Is(err, ErrExpired) {
		return Principal{}, Unauthorized("Expired token")
	}
	if err != nil {
		return Principal{}, Unauthorized("Invalid token")
	}
	return g.principal(ctx, claims)
}
