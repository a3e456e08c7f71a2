package database

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// A request that holds a transaction and then asks the pool for another
// connection (a repository called with the *bun.DB instead of the tx)
// deadlocks once as many requests do it at once as the pool has
// connections: each holds one and waits for one more, until the request
// deadline. RunInTx marks the context of the transaction it opens, and the
// guard every database of Open carries reports a query sent to the pool
// under such a context, before it waits for a connection.

// LockWait bounds how long a transaction of RunInTx waits for a row lock
// (PostgreSQL lock_timeout) or for the write lock of the file (SQLite
// busy_timeout) before it fails with an error IsBusy recognises, which the
// server answers with 503 and Retry-After: a client learns in seconds that
// it should try again instead of waiting for the request deadline.
const LockWait = 3 * time.Second

// ErrPoolInTx is what a query on the pool inside an open transaction of
// the same context fails with when the guard is strict (in test binaries).
var ErrPoolInTx = errors.New("database: query on the connection pool while this request holds a transaction; pass the transaction (bun.IDB) down")

// Strict makes the guard fail a query on the pool inside an open
// transaction with ErrPoolInTx, and records it for PoolInTx. Otherwise
// (production) the guard logs the offence and lets the query run. On in
// test binaries, so that a test fails on the first offence even when the
// pool had a connection to spare.
var Strict = testing.Testing()

type txState struct {
	open atomic.Bool
	// last holds the steps of BeforeCommit; only the transaction's own
	// goroutine touches it.
	last []func(ctx context.Context, tx bun.Tx) error
}

type txKey struct{}

// InTx reports whether ctx belongs to a transaction of RunInTx that is
// still open.
func InTx(ctx context.Context) bool {
	st, _ := ctx.Value(txKey{}).(*txState)
	return st != nil && st.open.Load()
}

// RunInTx runs fn in a transaction on db, committed when fn returns nil.
// Given a transaction (bun.Tx), fn runs in a savepoint of it. Code that
// needs a transaction calls this, never bun's RunInTx (a test in this
// package checks the modules): fn's context is marked, so that a query
// that reaches the pool from inside fn is caught, and on PostgreSQL a lock
// wait inside fn is bounded by LockWait.
func RunInTx(ctx context.Context, db bun.IDB, fn func(ctx context.Context, tx bun.Tx) error) error {
	switch d := db.(type) {
	case bun.Tx:
		return savepoint(ctx, d, fn)
	case *bun.Tx:
		return savepoint(ctx, *d, fn)
	}
	pool, ok := db.(*bun.DB)
	if !ok {
		return fmt.Errorf("database: RunInTx needs a *bun.DB or a bun.Tx, not %T", db)
	}
	if InTx(ctx) {
		// A second transaction beside the open one needs a second connection.
		if err := guardOf(pool).offence(ctx, "BEGIN"); err != nil {
			return err
		}
	}
	if g := guardOf(pool); g.gate != nil && !InTx(ctx) {
		if err := g.enter(ctx); err != nil {
			return err
		}
		defer g.leave()
	}
	st := &txState{}
	defer st.open.Store(false)
	return pool.RunInTx(context.WithValue(ctx, txKey{}, st), nil, func(ctx context.Context, tx bun.Tx) error {
		if IsPostgres(tx) {
			if _, err := tx.ExecContext(ctx, "SET LOCAL lock_timeout = "+fmt.Sprint(LockWait.Milliseconds())); err != nil {
				return err
			}
		}
		st.open.Store(true)
		if err := fn(ctx, tx); err != nil {
			return err
		}
		for len(st.last) > 0 {
			step := st.last[0]
			st.last = st.last[1:]
			if err := step(ctx, tx); err != nil {
				return err
			}
		}
		return nil
	})
}

// savepoint runs fn in a savepoint of tx; the BeforeCommit steps fn added
// go with it when it rolls back.
func savepoint(ctx context.Context, tx bun.Tx, fn func(ctx context.Context, tx bun.Tx) error) error {
	st, _ := ctx.Value(txKey{}).(*txState)
	var steps int
	if st != nil {
		steps = len(st.last)
	}
	err := tx.RunInTx(ctx, nil, fn)
	if err != nil && st != nil {
		st.last = st.last[:steps]
	}
	return err
}

// BeforeCommit adds step to the transaction of ctx (one of RunInTx), to
// run in it after its function returned without error, just before the
// commit; steps run in the order they were added. For a lock many
// transactions contend for, such as a counter whose next number must have
// no gaps: taken last, it is held for the commit alone, not for the rest
// of the transaction's work. Without such a transaction it is an error.
func BeforeCommit(ctx context.Context, step func(ctx context.Context, tx bun.Tx) error) error {
	st, _ := ctx.Value(txKey{}).(*txState)
	if st == nil || !st.open.Load() {
		return errors.New("database: BeforeCommit outside a transaction of RunInTx")
	}
	st.last = append(st.last, step)
	return nil
}

// guard is the bun.ConnResolver of the databases of Open: Bun asks it for
// the connection of every query built on the *bun.DB (the pool), and only
// for those; a query built on a bun.Tx runs on its transaction without
// asking.
type guard struct {
	pool *sql.DB
	// gate bounds the transactions open at once (nil: no bound), so that
	// transactions queued on one property's lock do not hold every pooled
	// connection while other users' plain reads wait for one (database/sql
	// hands a freed connection to a random waiter).
	gate chan struct{}

	mu      sync.Mutex
	reports []string
}

var guards sync.Map // *bun.DB -> *guard

// guardOf returns db's guard; a *bun.DB not made by Open gets one that
// reports but cannot see queries of Bun's builder.
func guardOf(db *bun.DB) *guard {
	if g, ok := guards.Load(db); ok {
		return g.(*guard)
	}
	g, _ := guards.LoadOrStore(db, &guard{pool: db.DB})
	return g.(*guard)
}

// withGuard makes a *bun.DB on sqldb whose queries on the pool are checked.
func withGuard(sqldb *sql.DB, dialect schema.Dialect) *bun.DB {
	g := &guard{pool: sqldb}
	db := bun.NewDB(sqldb, dialect, bun.WithConnResolver(g))
	guards.Store(db, g)
	return db
}

// ErrTxQueue is what RunInTx fails with when no transaction slot (see
// guard.gate) came free within LockWait; IsBusy recognises it.
var ErrTxQueue = errors.New("database: too many transactions waiting; try again")

// setGate bounds the transactions open at once on db: one on SQLite, which
// has one writer anyway (its transactions begin IMMEDIATE) and would make
// the others poll its lock holding their connections; on PostgreSQL all
// but a quarter of the pool (at least one connection) is left to queries
// outside transactions.
func setGate(db *bun.DB, maxOpen int) {
	n := 1
	if IsPostgres(db) {
		n = maxOpen - max(1, maxOpen/4)
	}
	if maxOpen <= 0 || n < 1 {
		return
	}
	guardOf(db).gate = make(chan struct{}, n)
}

func (g *guard) enter(ctx context.Context) error {
	select {
	case g.gate <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(LockWait)
	defer t.Stop()
	select {
	case g.gate <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return ErrTxQueue
	}
}

func (g *guard) leave() { <-g.gate }

// PoolInTx returns what the guard of db has caught so far: one line per
// query sent to the pool inside an open transaction of its context, with
// the code that sent it. Tests fail when it is not empty (see testkit).
func PoolInTx(db *bun.DB) []string {
	g := guardOf(db)
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.reports...)
}

// ResolveConn lets the query use the pool unless ctx holds an open
// transaction: then the offence is reported and, when Strict, the query
// fails at once with ErrPoolInTx.
func (g *guard) ResolveConn(ctx context.Context, q bun.Query) bun.IConn {
	if !InTx(ctx) {
		return nil
	}
	what := q.Operation()
	if table := q.GetTableName(); table != "" {
		what += " " + table
	}
	if err := g.offence(ctx, what); err != nil {
		return failConn{pool: g.pool, err: err}
	}
	return nil
}

// Close is part of bun.ConnResolver; the pool is Bun's to close.
func (g *guard) Close() error { return nil }

// offence logs a query on the pool inside a transaction and, when Strict,
// records it and returns ErrPoolInTx.
func (g *guard) offence(ctx context.Context, what string) error {
	where := caller()
	slog.Default().ErrorContext(ctx, "database: query on the pool inside a transaction of the same request; pass the transaction down",
		"query", what, "at", where)
	if !Strict {
		return nil
	}
	g.mu.Lock()
	g.reports = append(g.reports, what+" at "+where)
	g.mu.Unlock()
	return fmt.Errorf("%w (%s at %s)", ErrPoolInTx, what, where)
}

// caller is the innermost frames of the stack outside Bun and this
// package: the code that sent the query.
func caller() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []string
	for {
		f, more := frames.Next()
		if !strings.Contains(f.Function, "uptrace/bun") && !strings.Contains(f.Function, "platform/database.") &&
			!strings.HasPrefix(f.Function, "runtime.") {
			out = append(out, fmt.Sprintf("%s (%s:%d)", f.Function, shortFile(f.File), f.Line))
			if len(out) == 3 {
				break
			}
		}
		if !more {
			break
		}
	}
	return strings.Join(out, " <- ")
}

func shortFile(path string) string {
	if i := strings.Index(path, "/modules/"); i >= 0 {
		return path[i+1:]
	}
	if i := strings.Index(path, "/platform/"); i >= 0 {
		return path[i+1:]
	}
	return path
}

// failConn answers every query with err, without touching the pool.
type failConn struct {
	pool *sql.DB
	err  error
}

func (c failConn) QueryContext(context.Context, string, ...any) (*sql.Rows, error) { return nil, c.err }

func (c failConn) ExecContext(context.Context, string, ...any) (sql.Result, error) { return nil, c.err }

// QueryRowContext cannot make a *sql.Row that holds err; one from a
// cancelled context fails without taking a connection, and the offence
// was reported already.
func (c failConn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	return c.pool.QueryRowContext(ctx, query, args...)
}

// checkPool reports a query that Scan sends to the pool itself, past the
// guard (bound parameters go through a connection of their own).
func checkPool(ctx context.Context, db bun.IDB) error {
	if pool, ok := db.(*bun.DB); ok && InTx(ctx) {
		return guardOf(pool).offence(ctx, "SELECT")
	}
	return nil
}
