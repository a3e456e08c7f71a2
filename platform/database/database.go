// Package database opens the Bun database named by the configured URL
// (sqlite:PATH or postgres://...) and runs the modules' migrations.
package database

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/propman/propman/platform/config"
)

// Open connects to the database of cfg and checks that it answers.
func Open(ctx context.Context, cfg config.Database) (*bun.DB, error) {
	maxOpen := cfg.MaxOpen
	if maxOpen == 0 {
		maxOpen = 4 * runtime.GOMAXPROCS(0)
	}
	maxIdle := cfg.MaxIdle
	if maxIdle == 0 {
		maxIdle = maxOpen
	}
	var db *bun.DB
	if cfg.IsPostgres() {
		sqldb, err := sql.Open("pgx", cfg.URL)
		if err != nil {
			return nil, fmt.Errorf("database: %w", err)
		}
		db = withGuard(sqldb, pgdialect.New())
	} else {
		path, err := SQLitePath(cfg.URL)
		if err != nil {
			return nil, err
		}
		if dir := filepath.Dir(path); dir != "." {
			if err := os.MkdirAll(dir, 0o750); err != nil {
				return nil, fmt.Errorf("database: create folder for %s: %w", path, err)
			}
		}
		// The file holds password hashes: create it readable by its owner
		// only (SQLite gives its -wal and -shm files the same mode).
		if f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600); err == nil {
			_ = f.Close()
		}
		// WAL lets readers run beside the writer; IMMEDIATE transactions take
		// the write lock up front so two writers queue on busy_timeout instead
		// of failing with "database is locked" when one upgrades its lock.
		// The wait is LockWait: past it the writer answers 503 with
		// Retry-After rather than holding the client to the request deadline.
		dsn := "file:" + path + fmt.Sprintf("?_pragma=busy_timeout(%d)", LockWait.Milliseconds()) + "&_pragma=journal_mode(WAL)" +
			"&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
		sqldb, err := sql.Open("sqlite", dsn)
		if err != nil {
			return nil, fmt.Errorf("database: %w", err)
		}
		db = withGuard(sqldb, sqlitedialect.New())
	}
	db.SetMaxOpenConns(maxOpen)
	setGate(db, maxOpen)
	db.SetMaxIdleConns(maxIdle)
	db.SetConnMaxLifetime(cfg.Lifetime)
	pingCtx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("database: cannot reach %s: %w", Redact(cfg.URL), err)
	}
	return db, nil
}

// SQLitePath returns the file path of a sqlite: URL.
func SQLitePath(u string) (string, error) {
	path := strings.TrimPrefix(u, "sqlite:")
	path = strings.TrimPrefix(path, "//")
	if path == "" {
		return "", errors.New("database: sqlite URL has no path")
	}
	return path, nil
}

// Redact hides the password of a database URL for logs and messages.
func Redact(u string) string {
	parsed, err := url.Parse(u)
	if err != nil || parsed.User == nil {
		return u
	}
	if _, ok := parsed.User.Password(); ok {
		parsed.User = url.UserPassword(parsed.User.Username(), "xxxxx")
	}
	return parsed.String()
}

// IsPostgres reports whether db speaks PostgreSQL.
func IsPostgres(db bun.IDB) bool {
	return db.Dialect().Name().String() == "pg"
}

// IsUniqueViolation reports whether err is a unique-key conflict.
func IsUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		code := sqliteErr.Code()
		return code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// ConstraintName returns the name of the violated unique constraint or, on
// SQLite, the message that names its columns.
func ConstraintName(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.ConstraintName
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		return sqliteErr.Error()
	}
	return ""
}

// IsBusy reports whether err means a lock another transaction held was not
// granted in time (PostgreSQL lock_timeout, a deadlock or serialization
// failure; SQLite busy past busy_timeout): the same request is likely to
// succeed when sent again, so the client gets 503 with Retry-After.
func IsBusy(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrTxQueue) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// 55P03 lock_not_available, 40P01 deadlock_detected, 40001 serialization_failure.
		return pgErr.Code == "55P03" || pgErr.Code == "40P01" || pgErr.Code == "40001"
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		code := sqliteErr.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	return false
}

// IsUnavailable reports whether err means the database cannot be reached or
// did not answer in time, so the client should get 503 rather than 500.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, sql.ErrConnDone) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// Class 08: connection exception; 57P0x: the server is shutting down.
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P")
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) {
		code := sqliteErr.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	// database/sql does not export its "database is closed" error; a closed
	// pool is what a request meets while the service shuts down.
	msg := err.Error()
	return strings.Contains(msg, "unexpected EOF") || strings.Contains(msg, "conn closed") ||
		strings.Contains(msg, "sql: database is closed")
}
