package database_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

func openGuarded(t *testing.T, maxOpen int) *bun.DB {
	t.Helper()
	cfg := config.Database{URL: testkit.FreshDatabase(t), MaxOpen: maxOpen, Lifetime: time.Minute, Timeout: 10 * time.Second}
	db, err := database.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec("CREATE TABLE guarded (id INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	return db
}

// With one connection, a query on the pool inside the transaction would
// wait for ever; the guard fails it at once and names the caller.
func TestGuardFailsAQueryOnThePoolInsideATransaction(t *testing.T) {
	db := openGuarded(t, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var inside, count, exists, nested, savepoint error
	err := database.RunInTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(&map[string]any{"id": 1}).ModelTableExpr("guarded").Exec(ctx); err != nil {
			return err
		}
		var n int
		inside = db.NewSelect().TableExpr("guarded").ColumnExpr("count(*)").Scan(ctx, &n)
		_, count = db.NewSelect().TableExpr("guarded").Count(ctx)
		_, exists = db.NewSelect().TableExpr("guarded").Exists(ctx)
		nested = database.RunInTx(ctx, db, func(context.Context, bun.Tx) error { return nil })
		savepoint = database.RunInTx(ctx, tx, func(ctx context.Context, sp bun.Tx) error {
			_, err := sp.NewSelect().TableExpr("guarded").Count(ctx)
			return err
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]error{"scan": inside, "nested transaction": nested} {
		if !errors.Is(e, database.ErrPoolInTx) {
			t.Errorf("%s on the pool inside the transaction: %v, want ErrPoolInTx", name, e)
		}
	}
	for name, e := range map[string]error{"count": count, "exists": exists} {
		if e == nil {
			t.Errorf("%s on the pool inside the transaction succeeded", name)
		}
	}
	if savepoint != nil {
		t.Errorf("savepoint of the transaction: %v", savepoint)
	}
	if got := len(database.PoolInTx(db)); got != 4 {
		t.Errorf("guard reported %d offences, want 4: %v", got, database.PoolInTx(db))
	}
	// After the commit the same context may use the pool again.
	n, err := db.NewSelect().TableExpr("guarded").Count(ctx)
	if err != nil || n != 1 {
		t.Errorf("after the transaction: %d rows, %v", n, err)
	}
	if ctx.Err() != nil {
		t.Errorf("the guard let a query wait for a connection: %v", ctx.Err())
	}
}

// BeforeCommit steps run last, in order, in the transaction; those of a
// savepoint that rolled back do not run; outside a transaction it refuses.
func TestBeforeCommitRunsLastInTheTransaction(t *testing.T) {
	db := openGuarded(t, 2)
	ctx := context.Background()
	if err := database.BeforeCommit(ctx, nil); err == nil {
		t.Error("BeforeCommit outside a transaction succeeded")
	}
	var order []string
	step := func(name string) func(context.Context, bun.Tx) error {
		return func(ctx context.Context, tx bun.Tx) error {
			order = append(order, name)
			_, err := tx.NewInsert().Model(&map[string]any{"id": len(order)}).ModelTableExpr("guarded").Exec(ctx)
			return err
		}
	}
	err := database.RunInTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
		if err := database.BeforeCommit(ctx, step("first")); err != nil {
			return err
		}
		_ = database.RunInTx(ctx, tx, func(ctx context.Context, _ bun.Tx) error {
			if err := database.BeforeCommit(ctx, step("rolled back")); err != nil {
				return err
			}
			return errors.New("give up")
		})
		if err := database.BeforeCommit(ctx, step("second")); err != nil {
			return err
		}
		order = append(order, "work")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(order); got != "[work first second]" {
		t.Errorf("order %s, want [work first second]", got)
	}
	if n, err := db.NewSelect().TableExpr("guarded").Count(ctx); err != nil || n != 2 {
		t.Errorf("%d rows committed (%v), want 2", n, err)
	}
}
