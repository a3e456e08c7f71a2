package migrations

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/propman/propman/platform/database"
)

// Go registers the payments module's migrations written in Go.
var Go = []func(*migrate.Migrations) error{
	// Payment methods add cheque, direct_debit and set_off (a claim of the
	// tenant's set off against what they owe: no money received).
	func(ms *migrate.Migrations) error {
		const (
			before = "method IN ('bank_transfer', 'cash', 'card', 'other')"
			after  = "method IN ('bank_transfer', 'cash', 'card', 'cheque', 'direct_debit', 'set_off', 'other')"
		)
		return ms.Register(
			func(ctx context.Context, db *bun.DB) error {
				return database.ChangeCheck(ctx, db, "payments", "payments_method_check", before, after)
			},
			func(ctx context.Context, db *bun.DB) error {
				return database.ChangeCheck(ctx, db, "payments", "payments_method_check", after, before)
			})
	},
}
