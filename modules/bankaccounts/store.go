package bankaccounts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// Store reads and writes bank accounts.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound means no account matched.
var ErrNotFound = errors.New("bank account not found")

// byID returns, through db, the account with id in the workspace.
func (s *Store) byID(ctx context.Context, db bun.IDB, workspaceID int64, id uuid.UUID) (*Account, error) {
	a := new(Account)
	err := database.Select(ctx, db, db.NewSelect().Model(a).Where("id = ?", id).
		Where("workspace_id = ?", database.Param{V: workspaceID}))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("bank account by id: %w", err)
	}
	return a, nil
}

// defaultOf returns, through db, the workspace's default account, or
// ErrNotFound when it has none.
func (s *Store) defaultOf(ctx context.Context, db bun.IDB, workspaceID int64) (*Account, error) {
	a := new(Account)
	err := database.Select(ctx, db, db.NewSelect().Model(a).
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("is_default = ?", true).Limit(1))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("default bank account: %w", err)
	}
	return a, nil
}

// oldestOther returns, through db, the workspace's first-created account
// other than id, or ErrNotFound.
func (s *Store) oldestOther(ctx context.Context, db bun.IDB, workspaceID int64, id uuid.UUID) (*Account, error) {
	a := new(Account)
	err := database.Select(ctx, db, db.NewSelect().Model(a).
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("id <> ?", id).OrderExpr("id ASC").Limit(1))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("other bank account: %w", err)
	}
	return a, nil
}

// list returns one page of the workspace's accounts in creation order.
func (s *Store) list(ctx context.Context, p *auth.Principal, q listing.Query) ([]Account, listing.Result, error) {
	var list []Account
	res, err := listing.ScanWorkspace(ctx, s.db.NewSelect().Model(&list), "workspace_id", p, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list bank accounts: %w", err)
	}
	return list, res, nil
}

// insert adds a through db.
func (s *Store) insert(ctx context.Context, db bun.IDB, a *Account) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(a)); err != nil {
		return fmt.Errorf("insert bank account: %w", err)
	}
	return nil
}

// update writes every editable column of a through db.
func (s *Store) update(ctx context.Context, db bun.IDB, a *Account) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(a).
		Column("holder", "iban", "bic", "bank_name", "label", "currency", "is_default", "updated_at").
		Where("id = ?", a.ID))
	if err != nil {
		return fmt.Errorf("update bank account: %w", err)
	}
	return nil
}

// clearDefault takes the default mark off the workspace's accounts
// through db, before another gets it (the partial unique index allows
// one).
func (s *Store) clearDefault(ctx context.Context, db bun.IDB, workspaceID int64, now time.Time) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model((*Account)(nil)).
		Set("is_default = ?", false).Set("updated_at = ?", now).
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("is_default = ?", true))
	if err != nil {
		return fmt.Errorf("clear default bank account: %w", err)
	}
	return nil
}

// lock reads the account inside tx, locking it on PostgreSQL so that a
// contract being pointed at it waits for a deletion's outcome.
func (s *Store) lock(ctx context.Context, tx bun.Tx, workspaceID int64, id uuid.UUID) (*Account, error) {
	a := new(Account)
	q := tx.NewSelect().Model(a).Where("id = ?", id).Where("workspace_id = ?", database.Param{V: workspaceID})
	if database.IsPostgres(tx) {
		q = q.For("UPDATE")
	}
	err := database.Select(ctx, tx, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("lock bank account: %w", err)
	}
	return a, nil
}

// delete removes the row inside tx.
func (s *Store) delete(ctx context.Context, tx bun.Tx, id uuid.UUID) error {
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Account)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("delete bank account: %w", err)
	}
	return nil
}

// ibanTaken reports, through db, whether another account of a's workspace
// has its IBAN.
func (s *Store) ibanTaken(ctx context.Context, db bun.IDB, a *Account) (bool, error) {
	ok, err := database.Exists(ctx, db, db.NewSelect().Model((*Account)(nil)).
		Where("workspace_id = ?", database.Param{V: a.WorkspaceID}).Where("iban = ?", a.IBAN).Where("id <> ?", a.ID))
	if err != nil {
		return false, fmt.Errorf("bank account iban: %w", err)
	}
	return ok, nil
}
