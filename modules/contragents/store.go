package contragents

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Store reads and writes contragents.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound means no contragent matched.
var ErrNotFound = errors.New("contragent not found")

// ByID returns the contragent with id.
func (s *Store) ByID(ctx context.Context, id uuid.UUID) (*Contragent, error) {
	c := new(Contragent)
	err := s.db.NewSelect().Model(c).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("contragent by id: %w", err)
	}
	return c, nil
}
