package opcosts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Store reads and writes keys and statements.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

func (s *Store) keys(ctx context.Context, db bun.IDB, buildingID uuid.UUID) ([]KeyRow, error) {
	var rows []KeyRow
	if err := database.Select(ctx, db, db.NewSelect().Model(&rows).Where("building_id = ?", buildingID)); err != nil {
		return nil, fmt.Errorf("opcost keys: %w", err)
	}
	return rows, nil
}

func (s *Store) setKey(ctx context.Context, db bun.IDB, r *KeyRow) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*KeyRow)(nil)).
		Where("building_id = ?", r.BuildingID).Where("category = ?", r.Category)); err != nil {
		return fmt.Errorf("replace opcost key: %w", err)
	}
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(r)); err != nil {
		return fmt.Errorf("insert opcost key: %w", err)
	}
	return nil
}

var errNotFound = errors.New("statement not found")

func (s *Store) byID(ctx context.Context, db bun.IDB, buildingID, id uuid.UUID) (*Statement, error) {
	st := new(Statement)
	err := database.Select(ctx, db, db.NewSelect().Model(st).Where("id = ?", id).Where("building_id = ?", buildingID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	return st, nil
}

// postedOverlapping tells whether a posted statement of the building
// other than except covers a day of from..to.
func (s *Store) postedOverlapping(ctx context.Context, db bun.IDB, buildingID uuid.UUID, from, to period.Date, except uuid.UUID) (bool, error) {
	ok, err := database.Exists(ctx, db, db.NewSelect().Model((*Statement)(nil)).Where("building_id = ?", buildingID).
		Where("status = ?", Posted).Where("period_from <= ?", to).Where("period_to >= ?", from).Where("id <> ?", except))
	if err != nil {
		return false, fmt.Errorf("posted statements: %w", err)
	}
	return ok, nil
}

func (s *Store) insert(ctx context.Context, db bun.IDB, st *Statement) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(st)); err != nil {
		return fmt.Errorf("insert statement: %w", err)
	}
	return nil
}

// supersede marks the posted statement id superseded by its posted
// correction; false when it is no longer posted (corrected meanwhile).
func (s *Store) supersede(ctx context.Context, db bun.IDB, id uuid.UUID) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Statement)(nil)).Set("status = ?", Superseded).
		Where("id = ?", id).Where("status = ?", Posted))
	if err != nil {
		return false, fmt.Errorf("supersede statement: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("supersede statement: %w", err)
	}
	return n == 1, nil
}

// saveComputation rewrites what the statement records of its contracts
// (a confirmed prepayment, a message sent).
func (s *Store) saveComputation(ctx context.Context, db bun.IDB, st *Statement) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model(st).Column("computation").Where("id = ?", st.ID)); err != nil {
		return fmt.Errorf("save statement: %w", err)
	}
	return nil
}

// lockStatement reads the statement again inside tx, its row locked on
// PostgreSQL, so two writers of its computation queue.
func (s *Store) lockStatement(ctx context.Context, tx bun.Tx, buildingID, id uuid.UUID) (*Statement, error) {
	st := new(Statement)
	q := tx.NewSelect().Model(st).Where("id = ?", id).Where("building_id = ?", buildingID)
	if database.IsPostgres(tx) {
		q = q.For("UPDATE")
	}
	err := database.Select(ctx, tx, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	return st, nil
}

// markPosted turns the draft into a posted statement; false when it was
// posted already (a concurrent post).
func (s *Store) markPosted(ctx context.Context, db bun.IDB, st *Statement) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model(st).Column("status", "computation", "late_not_at_fault", "posted_at").
		Where("id = ?", st.ID).Where("status = ?", Draft))
	if err != nil {
		return false, fmt.Errorf("post statement: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("post statement: %w", err)
	}
	return n == 1, nil
}

// list returns a page of the building's statements, latest period first.
func (s *Store) list(ctx context.Context, buildingID uuid.UUID, q listing.Query) ([]Statement, listing.Result, error) {
	var out []Statement
	sel := s.db.NewSelect().Model(&out).Where("building_id = ?", buildingID)
	res, err := listing.Scan(ctx, sel, q, listing.Desc("period_from", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list statements: %w", err)
	}
	return out, res, nil
}

// periodsOf returns, through db, the statements of the buildings without
// their computation, each building's by period.
func periodsOf(ctx context.Context, db bun.IDB, buildingIDs []uuid.UUID) (map[uuid.UUID][]Statement, error) {
	out := map[uuid.UUID][]Statement{}
	if len(buildingIDs) == 0 {
		return out, nil
	}
	var list []Statement
	q := db.NewSelect().Model(&list).Column("id", "building_id", "period_from", "period_to", "status").
		Where("building_id ?", database.In(buildingIDs)).Order("building_id", "period_from", "id")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("statement periods: %w", err)
	}
	for _, st := range list {
		out[st.BuildingID] = append(out[st.BuildingID], st)
	}
	return out, nil
}

// deleteDraft removes the statement while it is a draft; false when it is
// not one (posted meanwhile).
func (s *Store) deleteDraft(ctx context.Context, db bun.IDB, id uuid.UUID) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewDelete().Model((*Statement)(nil)).Where("id = ?", id).Where("status = ?", Draft))
	if err != nil {
		return false, fmt.Errorf("delete statement: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("delete statement: %w", err)
	}
	return n == 1, nil
}
