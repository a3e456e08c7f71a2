package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound means no row matched: a raw id that is not a UUID, a row that
// does not exist, or one under another parent. Stores return it (or wrap
// it) so that a service can name its own domain error and no caller has to
// tell sql.ErrNoRows from a malformed id.
var ErrNotFound = errors.New("database: no such row")

// Parent narrows a read to the rows under one parent record (the column
// that names it and its id): a violation under its property, a line under
// its statement. An id of another parent reads as ErrNotFound, so that a
// record of another property or workspace answers like one that does not
// exist.
type Parent struct {
	Column string
	ID     any
}

// Under is the Parent whose column is column and id is id.
func Under(column string, id any) Parent { return Parent{Column: column, ID: id} }

// ReadOption changes how Get reads.
type ReadOption func(*bun.SelectQuery) *bun.SelectQuery

// ForUpdate locks the row for the rest of the transaction on PostgreSQL.
// SQLite has one writer, which the transaction already is once it writes,
// so the option adds nothing there.
func ForUpdate(sel *bun.SelectQuery) *bun.SelectQuery {
	if IsPostgres(sel.DB()) {
		return sel.For("UPDATE")
	}
	return sel
}

// Get reads, through db, the row of T (a bun model) whose id is rawID under
// each parent given. rawID is the path segment as the client sent it: only
// the canonical 36-character form of a UUID is an id, anything else is
// ErrNotFound, as is a missing row.
func Get[T any](ctx context.Context, db bun.IDB, rawID string, parents []Parent, opts ...ReadOption) (*T, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, ErrNotFound
	}
	return GetByID[T](ctx, db, id, parents, opts...)
}

// GetByID is Get for an id already parsed.
func GetByID[T any](ctx context.Context, db bun.IDB, id any, parents []Parent, opts ...ReadOption) (*T, error) {
	row := new(T)
	sel := db.NewSelect().Model(row).Where("?TableAlias.id = ?", id)
	for _, p := range parents {
		sel = sel.Where("?TableAlias.? = ?", bun.Ident(p.Column), p.ID)
	}
	for _, opt := range opts {
		sel = opt(sel)
	}
	err := Select(ctx, db, sel)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read %T: %w", row, err)
	}
	return row, nil
}

// InTxValue runs fn in a transaction (RunInTx's rules: nested calls become
// savepoints) and returns what fn returned once the transaction committed;
// on any error the zero value.
func InTxValue[T any](ctx context.Context, db bun.IDB, fn func(ctx context.Context, tx bun.Tx) (T, error)) (T, error) {
	var out T
	err := RunInTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
		v, err := fn(ctx, tx)
		if err != nil {
			return err
		}
		out = v
		return nil
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}

// IsForeignKeyViolation reports whether err is a foreign-key violation: a
// row names a parent that does not exist, or a parent is deleted while rows
// still name it.
func IsForeignKeyViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23503"
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		switch sqliteErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return true
		case sqlite3.SQLITE_CONSTRAINT_TRIGGER:
			// SQLite reports an ON DELETE RESTRICT refusal with this code.
			return strings.Contains(sqliteErr.Error(), "FOREIGN KEY")
		}
	}
	return false
}
