package database_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

func sql(body string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(body)} }

func TestCollectRejectsBadSets(t *testing.T) {
	good := fstest.MapFS{
		"20261122090000_a_one.up.sql":   sql("SELECT 1"),
		"20261122090000_a_one.down.sql": sql("SELECT 1"),
	}
	tests := []struct {
		name string
		sets []database.MigrationSet
		want string
	}{
		{"duplicate id across sets", []database.MigrationSet{
			{Owner: "a", FS: good},
			{Owner: "b", FS: fstest.MapFS{
				"20261122090000_b_one.up.sql":   sql("SELECT 1"),
				"20261122090000_b_one.down.sql": sql("SELECT 1"),
			}},
		}, "20261122090000 of b is used by a"},
		{"bad file name", []database.MigrationSet{{Owner: "a", FS: fstest.MapFS{
			"2026_one.up.sql": sql("SELECT 1"), "2026_one.down.sql": sql("SELECT 1"),
		}}}, `"2026_one.down.sql" is not named`},
		{"upper-case name", []database.MigrationSet{{Owner: "a", FS: fstest.MapFS{
			"20261122090000_One.up.sql": sql("SELECT 1"), "20261122090000_One.down.sql": sql("SELECT 1"),
		}}}, "is not named"},
		{"up without down", []database.MigrationSet{{Owner: "a", FS: fstest.MapFS{
			"20261122090000_a_one.up.sql": sql("SELECT 1"),
		}}}, "20261122090000 of a has no .down.sql"},
		{"down without up", []database.MigrationSet{{Owner: "a", FS: fstest.MapFS{
			"20261122090000_a_one.down.sql": sql("SELECT 1"),
		}}}, "20261122090000 of a has no .up.sql"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := database.Collect(tt.sets)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Collect error %v, want one containing %q", err, tt.want)
			}
		})
	}
	t.Run("valid sets", func(t *testing.T) {
		ms, err := database.Collect([]database.MigrationSet{{Owner: "a", FS: good}, {Owner: "b", FS: nil}})
		if err != nil {
			t.Fatalf("Collect: %v", err)
		}
		if n := len(ms.Sorted()); n != 1 {
			t.Errorf("%d migrations, want 1", n)
		}
	})
}

// The migrations of every compiled-in module have unique ids and each has a down.
func TestCatalogMigrationsCollect(t *testing.T) {
	ms, err := database.Collect(boot.MigrationSets(modules.Catalog()))
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}
	if len(ms.Sorted()) == 0 {
		t.Fatal("no migrations collected")
	}
}

func openFresh(t *testing.T) *bun.DB {
	t.Helper()
	cfg := config.Database{URL: testkit.FreshDatabase(t), Lifetime: time.Minute, Timeout: 10 * time.Second}
	db, err := database.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func statusCounts(t *testing.T, mg *database.Migrator) (applied, pending int) {
	t.Helper()
	st, err := mg.Status(context.Background())
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	for _, s := range st {
		if s.Applied {
			applied++
		} else {
			pending++
		}
	}
	return applied, pending
}

// Up, status, down and up again over the whole catalogue leave a working
// schema, on whichever engine the tests run.
func TestMigrateUpDownStatus(t *testing.T) {
	ctx := context.Background()
	db := openFresh(t)
	entries := modules.Catalog()
	mg, err := database.NewMigrator(db, boot.MigrationSets(entries))
	if err != nil {
		t.Fatalf("NewMigrator: %v", err)
	}
	applied, total := statusCounts(t, mg)
	if applied != 0 || total == 0 {
		t.Fatalf("fresh database: %d applied, %d pending; want 0 applied and some pending", applied, total)
	}

	names, err := mg.Up(ctx)
	if err != nil {
		t.Fatalf("Up: %v", err)
	}
	if len(names) != total {
		t.Errorf("Up applied %d, want %d", len(names), total)
	}
	if a, p := statusCounts(t, mg); a != total || p != 0 {
		t.Errorf("after Up: %d applied, %d pending; want %d, 0", a, p, total)
	}
	if names, err := mg.Up(ctx); err != nil || len(names) != 0 {
		t.Errorf("second Up applied %v, %v; want nothing", names, err)
	}
	var version string
	if err := db.NewSelect().Table("platform_info").Column("value").Where("key = ?", "created_with").Scan(ctx, &version); err != nil || version != "1.0.0" {
		t.Fatalf("platform_info after Up: %q, %v", version, err)
	}

	names, err = mg.Down(ctx)
	if err != nil {
		t.Fatalf("Down: %v", err)
	}
	if len(names) != total {
		t.Errorf("Down rolled back %d, want the whole group of %d", len(names), total)
	}
	if a, p := statusCounts(t, mg); a != 0 || p != total {
		t.Errorf("after Down: %d applied, %d pending; want 0, %d", a, p, total)
	}
	if err := db.NewSelect().Table("platform_info").Column("value").Scan(ctx, &version); err == nil {
		t.Error("platform_info still exists after Down")
	}
	if names, err := mg.Down(ctx); err != nil || len(names) != 0 {
		t.Errorf("Down with nothing applied: %v, %v; want nothing and no error", names, err)
	}

	// Up again, then seed: the schema works as the application uses it.
	if err := boot.Prepare(ctx, db, entries, testLogger()); err != nil {
		t.Fatalf("Prepare after Down: %v", err)
	}
	if a, p := statusCounts(t, mg); a != total || p != 0 {
		t.Errorf("after Up again: %d applied, %d pending", a, p)
	}
	if err := boot.Prepare(ctx, db, entries, testLogger()); err != nil {
		t.Fatalf("second Prepare (seeds must be idempotent): %v", err)
	}
}

// A migration that fails is not marked applied, and the ones before it in
// the same run stay applied only if they succeeded.
func TestFailedMigrationIsNotMarkedApplied(t *testing.T) {
	ctx := context.Background()
	db := openFresh(t)
	set := database.MigrationSet{Owner: "broken", FS: fstest.MapFS{
		"20261122090000_broken_ok.up.sql":     sql("CREATE TABLE broken_ok (id INTEGER PRIMARY KEY)"),
		"20261122090000_broken_ok.down.sql":   sql("DROP TABLE broken_ok"),
		"20261122090100_broken_fail.up.sql":   sql("CREATE TABLE broken_fail (id INTEGER PRIMARY KEY) THIS IS NOT SQL"),
		"20261122090100_broken_fail.down.sql": sql("DROP TABLE broken_fail"),
	}}
	mg, err := database.NewMigrator(db, []database.MigrationSet{set})
	if err != nil {
		t.Fatalf("NewMigrator: %v", err)
	}
	if _, err := mg.Up(ctx); err == nil {
		t.Fatal("Up succeeded with invalid SQL")
	}
	st, err := mg.Status(ctx)
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	for _, s := range st {
		if strings.Contains(s.Name, "fail") && s.Applied {
			t.Errorf("%s is marked applied although it failed", s.Name)
		}
	}
}

// Templates give each engine its own column types.
func TestMigrationTemplates(t *testing.T) {
	ctx := context.Background()
	db := openFresh(t)
	set := database.MigrationSet{Owner: "tpl", FS: fstest.MapFS{
		"20261122090000_tpl_things.up.sql": sql("CREATE TABLE tpl_things (id {{.ID}}, at {{.Time}} NOT NULL, doc {{.JSON}}, " +
			"kind VARCHAR(10) NOT NULL DEFAULT '{{if .Postgres}}pg{{else}}lite{{end}}')"),
		"20261122090000_tpl_things.down.sql": sql("DROP TABLE tpl_things"),
	}}
	mg, err := database.NewMigrator(db, []database.MigrationSet{set})
	if err != nil {
		t.Fatalf("NewMigrator: %v", err)
	}
	if _, err := mg.Up(ctx); err != nil {
		t.Fatalf("Up: %v", err)
	}
	var id int64
	if err := db.NewRaw("INSERT INTO tpl_things (at, doc) VALUES (?, ?) RETURNING id", time.Now().UTC(), `{"a":1}`).Scan(ctx, &id); err != nil {
		t.Fatalf("insert: %v", err)
	}
	var kind string
	if err := db.NewSelect().Table("tpl_things").Column("kind").Where("id = ?", id).Scan(ctx, &kind); err != nil {
		t.Fatalf("select: %v", err)
	}
	want := "lite"
	if database.IsPostgres(db) {
		want = "pg"
	}
	if id != 1 || kind != want {
		t.Errorf("id %d kind %q, want 1 %q", id, kind, want)
	}
}

func testLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestIsUnavailable(t *testing.T) {
	db := openFresh(t)
	ctx := context.Background()
	if err := db.PingContext(ctx); database.IsUnavailable(err) {
		t.Fatalf("a working database is unavailable: %v", err)
	}
	_, syntaxErr := db.ExecContext(ctx, "SELEC 1")
	if syntaxErr == nil || database.IsUnavailable(syntaxErr) {
		t.Errorf("a syntax error (%v) must not count as unavailable", syntaxErr)
	}
	deadline, cancel := context.WithTimeout(ctx, time.Nanosecond)
	defer cancel()
	<-deadline.Done()
	if _, err := db.ExecContext(deadline, "SELECT 1"); !database.IsUnavailable(err) {
		t.Errorf("a query past its deadline (%v) must count as unavailable", err)
	}
	db.Close()
	if _, err := db.ExecContext(ctx, "SELECT 1"); !database.IsUnavailable(err) {
		t.Errorf("a closed pool (%v) must count as unavailable", err)
	}
}

func TestSQLiteFileIsPrivate(t *testing.T) {
	path := t.TempDir() + "/sub/propman.db"
	db, err := database.Open(context.Background(), config.Database{URL: "sqlite:" + path, Lifetime: time.Minute, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (id INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + "-wal"} {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if mode := info.Mode().Perm(); mode&0o077 != 0 {
			t.Errorf("%s has mode %o, want no access for group and others", f, mode)
		}
	}
}
