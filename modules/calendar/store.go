package calendar

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// insertEvent writes e through db (the caller's transaction).
func insertEvent(ctx context.Context, db bun.IDB, e *Event) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(e)); err != nil {
		return fmt.Errorf("insert calendar event: %w", err)
	}
	return nil
}
