package migrations

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"github.com/propman/propman/platform/jobs"
)

// River's tables are one of the platform's migrations (bun names a Go
// migration after the file that registers it).
func init() {
	Go = append(Go, func(ms *migrate.Migrations) error {
		return ms.Register(
			func(ctx context.Context, db *bun.DB) error { return jobs.Migrate(ctx, db, true) },
			func(ctx context.Context, db *bun.DB) error { return jobs.Migrate(ctx, db, false) })
	})
}
