package contragents

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// Store reads and writes contragents.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound means no contragent matched.
var ErrNotFound = errors.New("contragent not found")

// ByID returns, through db (the pool or the caller's transaction), the
// contragent with id.
func (s *Store) ByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*Contragent, error) {
	c := new(Contragent)
	err := database.Select(ctx, db, db.NewSelect().Model(c).Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("contragent by id: %w", err)
	}
	return c, nil
}

// names returns, through db, the names of the contragents with ids.
func (s *Store) names(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]string, error) {
	out := make(map[uuid.UUID]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID   uuid.UUID `bun:"id"`
		Name string    `bun:"name"`
	}
	err := database.Query(ctx, db, db.NewSelect().Model((*Contragent)(nil)).Column("id", "name").Where("id ?", database.In(ids)), &rows)
	if err != nil {
		return nil, fmt.Errorf("contragent names: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, nil
}

// insertBatch is how many rows one INSERT statement carries.
const insertBatch = 500

// Insert adds list with multi-row inserts of at most insertBatch rows, on db
// or inside a transaction.
func (s *Store) Insert(ctx context.Context, db bun.IDB, list []Contragent) error {
	for start := 0; start < len(list); start += insertBatch {
		batch := list[start:min(start+insertBatch, len(list))]
		if _, err := database.Exec(ctx, db, db.NewInsert().Model(&batch)); err != nil {
			return fmt.Errorf("insert contragents: %w", err)
		}
	}
	return nil
}

// List returns one page of the contragents of p's workspace matching f, in
// creation order, and how many match; on the list's Page route the page's
// statement reads p's role too (listing.ScanWorkspace).
func (s *Store) List(ctx context.Context, p *auth.Principal, f ListFilter, q listing.Query) ([]Contragent, listing.Result, error) {
	var list []Contragent
	sel := s.db.NewSelect().Model(&list)
	if f.Role != "" {
		// roles is a JSON array of known names: match the quoted name.
		sel = sel.Where("roles LIKE ?", `%"`+f.Role+`"%`)
	}
	if f.Kind != "" {
		sel = sel.Where("kind = ?", f.Kind)
	}
	if term := strings.ToLower(strings.TrimSpace(f.Search)); term != "" {
		// Both sides are lower-cased by Go (name_search, email), so LIKE
		// compares the same way on SQLite and PostgreSQL.
		pattern := "%" + likeEscaper.Replace(term) + "%"
		sel = sel.WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.Where("name_search LIKE ? ESCAPE '!'", pattern).WhereOr("email LIKE ? ESCAPE '!'", pattern)
		})
	}
	total, err := listing.ScanWorkspace(ctx, sel, "workspace_id", p, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list contragents: %w", err)
	}
	return list, total, nil
}

// likeEscaper escapes LIKE's wildcards and its escape character '!'.
var likeEscaper = strings.NewReplacer("!", "!!", "%", "!%", "_", "!_")

// Update writes every editable column of c through db.
func (s *Store) Update(ctx context.Context, db bun.IDB, c *Contragent) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(c).
		Column("kind", "roles", "name", "name_search", "email", "phone", "address", "tax_id", "notes", "updated_at").
		WherePK())
	if err != nil {
		return fmt.Errorf("update contragent: %w", err)
	}
	return nil
}

// lockForDelete reads the row inside tx, locking it on PostgreSQL so that
// records being added that refer to it wait for the deletion's outcome.
func (s *Store) lockForDelete(ctx context.Context, tx bun.Tx, id uuid.UUID) error {
	q := tx.NewSelect().Model((*Contragent)(nil)).Column("id").Where("id = ?", id)
	if database.IsPostgres(tx) {
		q = q.For("UPDATE")
	}
	var got uuid.UUID
	err := database.Query(ctx, tx, q, &got)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("lock contragent: %w", err)
	}
	return nil
}

// delete removes the row inside tx.
func (s *Store) delete(ctx context.Context, tx bun.Tx, id uuid.UUID) error {
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Contragent)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("delete contragent: %w", err)
	}
	return nil
}

// InWorkspace returns, through db, those of ids that are contragents of
// the workspace: other modules check the contacts a record names with it.
func InWorkspace(ctx context.Context, db bun.IDB, workspaceID int64, ids []uuid.UUID) ([]uuid.UUID, error) {
	var found []uuid.UUID
	if len(ids) == 0 {
		return found, nil
	}
	err := database.Query(ctx, db, db.NewSelect().Model((*Contragent)(nil)).Column("id").
		Where("id ?", database.In(ids)).Where("workspace_id = ?", database.Param{V: workspaceID}), &found)
	if err != nil {
		return nil, fmt.Errorf("contragents of workspace: %w", err)
	}
	return found, nil
}
