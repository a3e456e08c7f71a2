package migrations

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/database"
)

// Go registers the expenses module's migrations written in Go.
var Go = []func(*migrate.Migrations) error{
	// The names the old code wrote in English ("Rent, contract 2026/001",
	// "Late fee: Deposit") become their kind and args, so they are read
	// in the reader's language; a name the parser does not know stays
	// custom, shown as typed. Down has nothing to undo: name still holds
	// the English wording and the columns go with the SQL migration.
	func(ms *migrate.Migrations) error {
		return ms.Register(NameKinds, func(context.Context, *bun.DB) error { return nil })
	},
}

// NameKinds sets name_kind and name_args of every custom expense and
// charge whose name is one the service generated. Running it again
// changes nothing.
func NameKinds(ctx context.Context, db *bun.DB) error {
	for _, table := range []string{"expenses", "charges"} {
		var rows []struct {
			ID   string `bun:"id"`
			Name string `bun:"name"`
		}
		sel := db.NewSelect().Table(table).Column("id", "name").Where("name_kind = ?", chargename.Custom)
		if err := database.Query(ctx, db, sel, &rows); err != nil {
			return fmt.Errorf("read %s names: %w", table, err)
		}
		for _, r := range rows {
			kind, args := chargename.Parse(r.Name).Stored()
			if kind == chargename.Custom {
				continue
			}
			up := db.NewUpdate().Table(table).Set("name_kind = ?", kind).Set("name_args = ?", args).Where("id = ?", r.ID)
			if _, err := database.Exec(ctx, db, up); err != nil {
				return fmt.Errorf("name kind of %s %s: %w", table, r.ID, err)
			}
		}
	}
	return nil
}
