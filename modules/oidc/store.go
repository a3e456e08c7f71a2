package oidc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// Code is a row of oidc_codes: a one-time code, by its keyed hash.
type Code struct {
	bun.BaseModel `bun:"table:oidc_codes"`

	CodeHash  string `bun:"code_hash,pk"`
	UserID    int64  `bun:"user_id,notnull"`
	Provider  string `bun:"provider,notnull"`
	ExpiresMS int64  `bun:"expires_ms,notnull"`
	CreatedMS int64  `bun:"created_ms,notnull"`
}

// Store keeps the one-time codes.
type Store struct{ db *bun.DB }

// NewStore returns the store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// SaveCode stores c and forgets the codes that have expired (never
// exchanged), so the table holds at most a minute of sign-ins.
func (s *Store) SaveCode(ctx context.Context, c *Code) error {
	if _, err := database.Exec(ctx, s.db, s.db.NewRaw(`DELETE FROM oidc_codes WHERE expires_ms <= ?`,
		database.Param{V: c.CreatedMS})); err != nil {
		return fmt.Errorf("forget expired codes: %w", err)
	}
	if _, err := database.Exec(ctx, s.db, s.db.NewInsert().Model(c)); err != nil {
		return fmt.Errorf("save one-time code: %w", err)
	}
	return nil
}

// TakeCode consumes the unexpired code with hash in one statement, so of
// two requests with one code exactly one gets it.
func (s *Store) TakeCode(ctx context.Context, hash string, nowMS int64) (*Code, error) {
	c := new(Code)
	err := database.Query(ctx, s.db, s.db.NewRaw(`DELETE FROM oidc_codes WHERE code_hash = ? AND expires_ms > ?
		RETURNING code_hash, user_id, provider, expires_ms, created_ms`, hash, database.Param{V: nowMS}), c)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrInvalidCode
	}
	if err != nil {
		return nil, fmt.Errorf("take one-time code: %w", err)
	}
	return c, nil
}
