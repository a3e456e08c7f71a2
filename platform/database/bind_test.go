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
		if _, err := tx.ExecContext(ctx, "INSERT INTO properties (id, owner_id, name, country_code, currency, created_at, updated_at) VALUES (?, ?, 'Mine', 'DE', 'EUR', ?, ?)",
			id, owner, now.Add(-time.Hour), now.Add(-time.Hour)); err != nil {
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
