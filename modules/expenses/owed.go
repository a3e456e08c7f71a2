package expenses

import (
	"context"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/period"
)

// Owed pages, by id, through the workspace's contract charges still owed
// (unpaid, not cancelled, less paid than charged) that fall due from from
// to to: what the notices job calls and reminds. One statement a page over
// the whole workspace, never a query per property.
func (s *Service) Owed(ctx context.Context, workspaceID int64, from, to period.Date, after uuid.UUID, limit int) ([]Charge, error) {
	return s.store.owed(ctx, s.store.db, workspaceID, from, to, after, limit)
}
