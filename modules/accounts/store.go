package accounts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun"
)

// Store reads and writes users.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound means no user matched.
var ErrNotFound = errors.New("user not found")

// Insert adds u and sets its id.
func (s *Store) Insert(ctx context.Context, db bun.IDB, u *User) error {
	if _, err := db.NewInsert().Model(u).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert user: %w", err)
	}
	return nil
}

// ByID returns the user with id.
func (s *Store) ByID(ctx context.Context, id int64) (*User, error) {
	u := new(User)
	err := s.db.NewSelect().Model(u).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("user by id: %w", err)
	}
	return u, nil
}
