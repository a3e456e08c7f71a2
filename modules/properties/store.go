package properties

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

// Store reads and writes properties.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound means no property matched.
var ErrNotFound = errors.New("property not found")

// Insert adds p through db (the transaction that logs it).
func (s *Store) Insert(ctx context.Context, db bun.IDB, p *Property) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(p)); err != nil {
		return fmt.Errorf("insert property: %w", err)
	}
	return nil
}

// ByID returns the property with id.
func (s *Store) ByID(ctx context.Context, id uuid.UUID) (*Property, error) {
	p := new(Property)
	// Every per-property route starts here: bound, the id does not make
	// each call a new statement for PostgreSQL (database.Render).
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(p).Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("property by id: %w", err)
	}
	return p, nil
}

// List returns one page of the properties of p's workspace in creation
// order and how many there are; on the list's Page route the page's
// statement reads p's role too (listing.ScanWorkspace).
func (s *Store) List(ctx context.Context, p *auth.Principal, q listing.Query) ([]Property, listing.Result, error) {
	var list []Property
	sel := s.db.NewSelect().Model(&list)
	switch q.Get("archived") {
	case "true":
		sel = sel.Where("archived_at IS NOT NULL")
	case "false":
		sel = sel.Where("archived_at IS NULL")
	}
	total, err := listing.ScanWorkspace(ctx, sel, "workspace_id", p, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list properties: %w", err)
	}
	return list, total, nil
}

// Active returns a page of the workspace's properties that are not
// archived, by id after afterID: the periodic work walks a portfolio with
// it.
func (s *Store) Active(ctx context.Context, workspaceID int64, afterID uuid.UUID, limit int) ([]Property, error) {
	var list []Property
	sel := s.db.NewSelect().Model(&list).Where("workspace_id = ?", database.Param{V: workspaceID}).
		Where("archived_at IS NULL").OrderExpr("id").Limit(int64(limit))
	if afterID != uuid.Nil {
		sel = sel.Where("id > ?", afterID)
	}
	if err := database.Select(ctx, s.db, sel); err != nil {
		return nil, fmt.Errorf("active properties: %w", err)
	}
	return list, nil
}

// Update writes every editable column of p through db.
func (s *Store) Update(ctx context.Context, db bun.IDB, p *Property) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(p).
		Column("name", "address", "city", "postal_code", "country_code", "currency", "living_area_centi", "updated_at").
		WherePK())
	if err != nil {
		return fmt.Errorf("update property: %w", err)
	}
	return nil
}

// setArchived sets or clears archived_at of p, already changed in memory.
func (s *Store) setArchived(ctx context.Context, db bun.IDB, p *Property) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(p).Column("archived_at", "updated_at").WherePK())
	if err != nil {
		return fmt.Errorf("archive property: %w", err)
	}
	return nil
}

// Lock reads the property with id inside tx, locking its row on PostgreSQL
// until tx ends, so that an archiving or a deletion waits for what tx adds
// under the property (and the other way round). ErrNotFound when it is gone.
func Lock(ctx context.Context, tx bun.Tx, id uuid.UUID) (*Property, error) {
	p := new(Property)
	q := tx.NewSelect().Model(p).Where("id = ?", id)
	if database.IsPostgres(tx) {
		q = q.For("UPDATE")
	}
	err := database.Select(ctx, tx, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("lock property: %w", err)
	}
	return p, nil
}

// LockMany locks the properties with ids as Lock does, in one statement
// and in the order of their ids, so that two transactions locking
// overlapping sets wait for each other rather than deadlock. A property
// that does not exist is ErrNotFound.
func LockMany(ctx context.Context, tx bun.Tx, ids []uuid.UUID) (map[uuid.UUID]*Property, error) {
	out := make(map[uuid.UUID]*Property, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var list []Property
	q := tx.NewSelect().Model(&list).Where("id ?", database.In(ids)).OrderExpr("id")
	if database.IsPostgres(tx) {
		q = q.For("UPDATE")
	}
	if err := database.Select(ctx, tx, q); err != nil {
		return nil, fmt.Errorf("lock properties: %w", err)
	}
	for i := range list {
		out[list[i].ID] = &list[i]
	}
	for _, id := range ids {
		if out[id] == nil {
			return nil, ErrNotFound
		}
	}
	return out, nil
}

// LockAll locks, inside tx, the rows of the properties with ids as Lock
// does one (on PostgreSQL), in id order so that two batches cannot
// deadlock each other, and returns the ids of those that still exist: a
// batch of the billing run adds charges under all of them at once.
func LockAll(ctx context.Context, tx bun.Tx, ids []uuid.UUID) ([]uuid.UUID, error) {
	var got []uuid.UUID
	if len(ids) == 0 {
		return got, nil
	}
	q := tx.NewSelect().Model((*Property)(nil)).Column("id").Where("id ?", database.In(ids)).OrderExpr("id")
	if database.IsPostgres(tx) {
		q = q.For("UPDATE")
	}
	if err := database.Query(ctx, tx, q, &got); err != nil {
		return nil, fmt.Errorf("lock properties: %w", err)
	}
	return got, nil
}

// lockForDelete reads the property row inside tx, locking it on PostgreSQL
// so that records being added under it wait for the deletion's outcome.
func (s *Store) lockForDelete(ctx context.Context, tx bun.Tx, id uuid.UUID) error {
	q := tx.NewSelect().Model((*Property)(nil)).Column("id").Where("id = ?", id)
	if database.IsPostgres(tx) {
		q = q.For("UPDATE")
	}
	var got uuid.UUID
	err := database.Query(ctx, tx, q, &got)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("lock property: %w", err)
	}
	return nil
}

// delete removes the property row inside tx.
func (s *Store) delete(ctx context.Context, tx bun.Tx, id uuid.UUID) error {
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Property)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("delete property: %w", err)
	}
	return nil
}

// Places are the properties with ids as a calendar or a letter names the
// place: "name, address, postal code city", read through db in pages.
func Places(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]string, error) {
	out := make(map[uuid.UUID]string, len(ids))
	for start := 0; start < len(ids); start += 500 {
		var list []Property
		q := db.NewSelect().Model(&list).Column("id", "name", "address", "postal_code", "city").
			Where("id ?", database.In(ids[start:min(start+500, len(ids))]))
		if err := database.Select(ctx, db, q); err != nil {
			return nil, fmt.Errorf("places: %w", err)
		}
		for _, p := range list {
			parts := []string{p.Name}
			if a := strings.TrimSpace(p.Address); a != "" {
				parts = append(parts, a)
			}
			if c := strings.TrimSpace(strings.TrimSpace(p.PostalCode) + " " + strings.TrimSpace(p.City)); c != "" {
				parts = append(parts, c)
			}
			out[p.ID] = strings.Join(parts, ", ")
		}
	}
	return out, nil
}

// CountActive counts the workspace's properties in use (not archived),
// through db (a transaction's, inside one).
func CountActive(ctx context.Context, db bun.IDB, workspaceID int64) (int, error) {
	return database.Count(ctx, db, db.NewSelect().Model((*Property)(nil)).
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("archived_at IS NULL"))
}

// InWorkspace reports, through db, whether the property with id is the
// workspace's.
func InWorkspace(ctx context.Context, db bun.IDB, workspaceID int64, id uuid.UUID) (bool, error) {
	ok, err := database.Exists(ctx, db, db.NewSelect().Model((*Property)(nil)).Where("id = ?", id).
		Where("workspace_id = ?", database.Param{V: workspaceID}))
	if err != nil {
		return false, fmt.Errorf("property of workspace: %w", err)
	}
	return ok, nil
}
