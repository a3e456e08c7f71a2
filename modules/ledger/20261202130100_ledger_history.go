package ledger

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
)

// goMigrations are the module's migrations written in Go; bun names each
// after the file that registers it.
var goMigrations = []func(*migrate.Migrations) error{
	// The history recorded before the ledger: one entry per charge, payment,
	// deposit settlement and paid-out compensation as they stand, written
	// by the same function as every later entry, in one transaction.
	func(ms *migrate.Migrations) error {
		return ms.Register(
			func(ctx context.Context, db *bun.DB) error {
				svc := &Service{store: NewStore(db), clock: clock.Real{}}
				return database.RunInTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
					return svc.journalHistory(ctx, tx)
				})
			},
			// The journal's tables go with the migration before; nothing
			// of this one can be taken out alone (entries are never
			// deleted).
			func(context.Context, *bun.DB) error { return nil })
	},
}
