package contracts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/period"
)

// Ending pages, by id, through the workspace's contracts that end from
// from to to: an active one on its end date, a terminated one on the day
// it was terminated for. One statement a page over the workspace.
func (s *Service) Ending(ctx context.Context, workspaceID int64, from, to period.Date, after uuid.UUID, limit int) ([]Contract, error) {
	return s.store.Ending(ctx, s.db, workspaceID, from, to, after, limit)
}

// EndsOn is the day c ends: the termination day of a terminated contract,
// else its end date (zero when open-ended).
func (c *Contract) EndsOn() period.Date {
	if c.Status == Terminated && !c.TerminatedOn.IsZero() {
		return c.TerminatedOn
	}
	return c.EndDate
}

// ByID reads, through db, the contract with id, whoever may see it: for
// the jobs that act for a workspace (the notices), never for a request.
func (s *Service) ByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*Contract, error) {
	return s.store.ByID(ctx, db, id)
}
