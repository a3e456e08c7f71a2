package database_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

type boundRow struct {
	bun.BaseModel `bun:"table:properties"`
	ID            uuid.UUID `bun:"id,pk"`
	OwnerID       int64     `bun:"owner_id"`
	Name          string    `bun:"name"`
}

// On PostgreSQL a rendered query carries no value in its text: the uuid,
// the string (with a quote), the time and a Param-wrapped integer are
// placeholders with their values apart, and the query runs with them, on
// the pool and inside a transaction. SQLite keeps Bun's formatting.
func TestRenderBindsValues(t *testing.T) {
	app := testkit.Start(t)
	ctx := context.Background()
	id := uuid.New()
	now := time.Now().UTC()
	build := func(db bun.IDB, dest *[]boundRow) *bun.SelectQuery {
		return db.NewSelect().Model(dest).Where("id = ?", id).Where("name <> ?", "it's").
			Where("owner_id <> ?", database.Param{V: int64(424242)}).Where("created_at < ?", now)
	}
	var rows []boundRow
	text, args, err := database.Render(app.DB, build(app.DB, &rows))
	if err != nil {
		t.Fatal(err)
	}
	if app.Engine == "postgres" {
		if len(args) != 4 || !strings.Contains(text, "$4") {
			t.Fatalf("args %v in %s", args, text)
		}
		for _, literal := range []string{id.String(), "it''s", "424242", now.Format("2006-01-02")} {
			if strings.Contains(text, literal) {
				t.Fatalf("%q is in the text: %s", literal, text)
			}
		}
	} else if len(args) != 0 || !strings.Contains(text, id.String()) || !strings.Contains(text, "424242") {
		t.Fatalf("SQLite: args %v in %s", args, text)
	}
	if err := database.Scan(ctx, app.DB, text, args, &rows); err != nil || len(rows) != 0 {
		t.Fatalf("scan: %v, %d rows", err, len(rows))
	}
	err = app.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO users (email, name, password_hash, country_code, created_at, updated_at) VALUES (?, 'B', 'x', 'DE', ?, ?)",
			"bound@example.com", now, now); err != nil {
			return err
		}
		var owner int64
		if err := tx.NewRaw("SELECT id FROM users WHERE email = ?", "bound@example.com").Scan(ctx, &owner); err != nil {
			return err
		}
		ws, err := workspace(ctx, tx, owner, now)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO properties (id, owner_id, workspace_id, name, country_code, currency, created_at, updated_at) VALUES (?, ?, ?, 'Mine', 'DE', 'EUR', ?, ?)",
			id, owner, ws, now.Add(-time.Hour), now.Add(-time.Hour)); err != nil {
			return err
		}
		// Only this transaction sees the row: found means the bound query
		// ran inside it.
		var got []boundRow
		if err := database.Select(ctx, tx, build(tx, &got)); err != nil {
			return err
		}
		if len(got) != 1 || got[0].ID != id || got[0].OwnerID != owner {
			t.Errorf("inside the transaction: %+v", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Exec, Query (RETURNING), Count, Exists and In run with their values bound
// on PostgreSQL (the hook sees placeholders and the arguments apart) and as
// Bun writes them on SQLite, on the pool and inside a transaction.
func TestBoundWrites(t *testing.T) {
	app := testkit.Start(t)
	ctx := context.Background()
	now := time.Now().UTC()
	var owner int64
	err := database.Query(ctx, app.DB, app.DB.NewRaw(
		"INSERT INTO users (email, name, password_hash, country_code, created_at, updated_at) VALUES (?, 'W', 'x', 'DE', ?, ?) RETURNING id",
		"writes@example.com", now, now), &owner)
	if err != nil || owner == 0 {
		t.Fatalf("insert returning: %v, id %d", err, owner)
	}
	ws, err := workspace(ctx, app.DB, owner, now)
	if err != nil {
		t.Fatal(err)
	}
	ids := []uuid.UUID{uuid.New(), uuid.New(), uuid.New()}
	for i, id := range ids {
		row := &boundRow{ID: id, OwnerID: owner, Name: "it's " + string(rune('a'+i))}
		q := app.DB.NewInsert().Model(row).Value("workspace_id", "?", ws).Value("country_code", "?", "DE").Value("currency", "?", "EUR").
			Value("created_at", "?", now).Value("updated_at", "?", now)
		text, args, err := database.Render(app.DB, q)
		if err != nil {
			t.Fatal(err)
		}
		if app.Engine == "postgres" && (strings.Contains(text, id.String()) || len(args) < 3) {
			t.Fatalf("insert not bound: %v in %s", args, text)
		}
		if _, err := database.Exec(ctx, app.DB, q); err != nil {
			t.Fatalf("insert: %v", err)
		}
	}
	// Question marks in a value stay as written: on SQLite the formatted
	// text goes through Bun's raw query again.
	upd := app.DB.NewUpdate().Model((*boundRow)(nil)).Set("name = ?", "renamed ?0 ?TableAlias ?").Where("id = ?", ids[0]).
		Where("owner_id = ?", database.Param{V: owner})
	res, err := database.Exec(ctx, app.DB, upd)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("update touched %d rows", n)
	}

	mine := func(db bun.IDB) *bun.SelectQuery {
		return db.NewSelect().Model((*boundRow)(nil)).Where("owner_id = ?", database.Param{V: owner})
	}
	if n, err := database.Count(ctx, app.DB, mine(app.DB)); err != nil || n != 3 {
		t.Fatalf("count: %d, %v", n, err)
	}
	if ok, err := database.Exists(ctx, app.DB, mine(app.DB).Where("name = ?", "renamed ?0 ?TableAlias ?")); err != nil || !ok {
		t.Fatalf("exists: %v, %v", ok, err)
	}
	if ok, err := database.Exists(ctx, app.DB, mine(app.DB).Where("name = ?", "nobody")); err != nil || ok {
		t.Fatalf("exists of none: %v, %v", ok, err)
	}

	// In: one placeholder for the whole list on PostgreSQL, so two lengths
	// give one text; an empty list matches nothing.
	in := func(db bun.IDB, list any, dest *[]boundRow) *bun.SelectQuery {
		return db.NewSelect().Model(dest).Where("id ?", database.In(list)).Order("name")
	}
	var two, one []boundRow
	text2, args2, err := database.Render(app.DB, in(app.DB, ids[1:], &two))
	if err != nil {
		t.Fatal(err)
	}
	text1, _, _ := database.Render(app.DB, in(app.DB, ids[:1], &one))
	if app.Engine == "postgres" && (text1 != text2 || len(args2) != 1 || !strings.Contains(text2, "= ANY($1)")) {
		t.Fatalf("In: %s / %s, args %v", text1, text2, args2)
	}
	if err := database.Select(ctx, app.DB, in(app.DB, ids[1:], &two)); err != nil || len(two) != 2 {
		t.Fatalf("In uuids: %v, %+v", err, two)
	}
	strs := []string{ids[0].String(), ids[2].String()}
	if err := database.Select(ctx, app.DB, in(app.DB, strs, &one)); err != nil || len(one) != 2 {
		t.Fatalf("In strings: %v, %+v", err, one)
	}
	var none []boundRow
	if err := database.Select(ctx, app.DB, in(app.DB, []uuid.UUID{}, &none)); err != nil || len(none) != 0 {
		t.Fatalf("In empty: %v, %+v", err, none)
	}
	var owners []int64
	if err := database.Query(ctx, app.DB, app.DB.NewSelect().Table("users").Column("id").Where("id ?", database.In([]int64{owner, -1})), &owners); err != nil || len(owners) != 1 {
		t.Fatalf("In int64: %v, %v", err, owners)
	}

	err = app.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*boundRow)(nil)).Where("id ?", database.In(ids))); err != nil {
			return err
		}
		// Only this transaction has deleted them yet.
		n, err := database.Count(ctx, tx, mine(tx))
		if err != nil || n != 0 {
			t.Errorf("inside the transaction: %d rows, %v", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := database.Count(ctx, app.DB, mine(app.DB)); err != nil || n != 0 {
		t.Fatalf("after the transaction: %d, %v", n, err)
	}
}

// workspace makes the owner's workspace, which a property must name.
func workspace(ctx context.Context, db bun.IDB, owner int64, now time.Time) (int64, error) {
	var id int64
	err := db.NewRaw("INSERT INTO workspaces (name, landlord_id, created_at, updated_at) VALUES ('W', ?, ?, ?) RETURNING id", owner, now, now).Scan(ctx, &id)
	return id, err
}
