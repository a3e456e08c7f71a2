package jobs

import (
	"context"
	"fmt"

	"github.com/riverqueue/river/rivermigrate"
	"github.com/uptrace/bun"
)

// Migrate brings River's tables (river_job, river_leader, ...) up to the
// version this build's River needs, or removes them (up false). It runs as
// one of propman's own migrations, so `propman migrate` and the automatic
// migration at start set up the queue with everything else.
func Migrate(ctx context.Context, db *bun.DB, up bool) error {
	m, err := rivermigrate.New(driver(db), nil)
	if err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	direction, opts := rivermigrate.DirectionUp, (*rivermigrate.MigrateOpts)(nil)
	if !up {
		direction, opts = rivermigrate.DirectionDown, &rivermigrate.MigrateOpts{TargetVersion: -1}
	}
	if _, err := m.Migrate(ctx, direction, opts); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	return nil
}
