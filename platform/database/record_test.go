package database_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

type parentRow struct {
	bun.BaseModel `bun:"table:parents"`
	ID            uuid.UUID `bun:"id,pk"`
}

type childRow struct {
	bun.BaseModel `bun:"table:children"`
	ID            uuid.UUID `bun:"id,pk"`
	ParentID      uuid.UUID `bun:"parent_id,notnull"`
	Name          string    `bun:"name,notnull"`
}

func openRecords(t *testing.T) *bun.DB {
	t.Helper()
	cfg := config.Database{URL: testkit.FreshDatabase(t), MaxOpen: 4, Lifetime: time.Minute, Timeout: 10 * time.Second}
	db, err := database.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		"CREATE TABLE parents (id UUID PRIMARY KEY)",
		"CREATE TABLE children (id UUID PRIMARY KEY, parent_id UUID NOT NULL REFERENCES parents (id) ON DELETE RESTRICT, name TEXT NOT NULL)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// Get answers ErrNotFound alike for a malformed id, a missing row and a row
// under another parent, so that no caller can tell them apart; it reads the
// row under its own parent, locked or not, inside a transaction too.
func TestGetReadsARecordUnderItsParent(t *testing.T) {
	t.Parallel()
	db := openRecords(t)
	ctx := context.Background()
	mine, other := uuid.New(), uuid.New()
	child := &childRow{ID: uuid.New(), ParentID: mine, Name: "boiler"}
	if _, err := db.NewInsert().Model(&[]parentRow{{ID: mine}, {ID: other}}).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.NewInsert().Model(child).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	under := []database.Parent{database.Under("parent_id", mine)}
	got, err := database.Get[childRow](ctx, db, child.ID.String(), under)
	if err != nil || got.Name != "boiler" {
		t.Fatalf("own row: %+v, %v", got, err)
	}
	for name, raw := range map[string]string{
		"not a uuid":      "boiler",
		"uuid unhyphened": "6ba7b8109dad11d180b400c04fd430c8",
		"missing":         uuid.NewString(),
	} {
		if _, err := database.Get[childRow](ctx, db, raw, under); !errors.Is(err, database.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
	}
	if _, err := database.Get[childRow](ctx, db, child.ID.String(), []database.Parent{database.Under("parent_id", other)}); !errors.Is(err, database.ErrNotFound) {
		t.Errorf("another parent's row: %v, want ErrNotFound", err)
	}

	name, err := database.InTxValue(ctx, db, func(ctx context.Context, tx bun.Tx) (string, error) {
		c, err := database.Get[childRow](ctx, tx, child.ID.String(), under, database.ForUpdate)
		if err != nil {
			return "", err
		}
		return c.Name, nil
	})
	if err != nil || name != "boiler" {
		t.Fatalf("locked read in a transaction: %q, %v", name, err)
	}
	if v, err := database.InTxValue(ctx, db, func(context.Context, bun.Tx) (int, error) { return 7, errors.New("refused") }); err == nil || v != 0 {
		t.Errorf("a failed transaction returned %d, %v; want the zero value and the error", v, err)
	}
}

// A row naming a missing parent, and a parent deleted under its rows, are
// foreign-key violations on both engines; a duplicate key is not.
func TestIsForeignKeyViolation(t *testing.T) {
	t.Parallel()
	db := openRecords(t)
	ctx := context.Background()
	_, err := db.NewInsert().Model(&childRow{ID: uuid.New(), ParentID: uuid.New(), Name: "orphan"}).Exec(ctx)
	if !database.IsForeignKeyViolation(err) {
		t.Errorf("orphan insert: %v, want a foreign-key violation", err)
	}
	parent := uuid.New()
	if _, err := db.NewInsert().Model(&parentRow{ID: parent}).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.NewInsert().Model(&childRow{ID: uuid.New(), ParentID: parent, Name: "kept"}).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = db.NewDelete().Model((*parentRow)(nil)).Where("id = ?", parent).Exec(ctx)
	if !database.IsForeignKeyViolation(err) {
		t.Errorf("delete of a referenced parent: %v, want a foreign-key violation", err)
	}
	_, err = db.NewInsert().Model(&parentRow{ID: parent}).Exec(ctx)
	if database.IsForeignKeyViolation(err) || !database.IsUniqueViolation(err) {
		t.Errorf("duplicate key: %v, want a unique violation only", err)
	}
}
