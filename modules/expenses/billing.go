package expenses

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/period"
)

// BillingKind is the periodic billing of a workspace: every active
// property's automatic charges, each expense caught up from the period
// after its last billed one (or from its start), at most MaxCatchUp
// periods back; a billed period is never touched, nor one before it (a
// charge the landlord cancelled or deleted stays so). It goes through the
// portfolio in batches (BillWorkspace), each its own transaction.
func BillingKind(s *Service, props *properties.Service) jobs.Kind {
	return jobs.Kind{Name: "billing", At: "06:00", Run: func(ctx context.Context, run jobs.Run) (map[string]int, []string, error) {
		// The workspace's own day: at 00:30 in Berlin on the first of a
		// month, UTC is still in the month before.
		today, err := period.ParseDate(run.LocalDate)
		if err != nil {
			return map[string]int{"properties": 0, "charges_created": 0, "skipped": 0, "errors": 0}, nil, fmt.Errorf("billing: run date %q: %w", run.LocalDate, err)
		}
		res, err := s.BillWorkspace(ctx, props, run.WorkspaceID, today)
		counts := map[string]int{"properties": res.Properties, "charges_created": res.Created, "skipped": res.Skipped, "errors": res.Errors}
		return counts, res.Problems, err
	}}
}

// Bill makes prop's automatic charges up to the period holding today (the
// workspace's local day) under the rule of the periodic billing, for one
// property in its own transaction. The run itself bills in batches
// (BillWorkspace); Bill is what its tests compare the batches with.
func (s *Service) Bill(ctx context.Context, prop *properties.Property, today period.Date) (RefreshResult, error) {
	list, err := s.store.ActiveAutomatic(ctx, prop.ID)
	if err != nil || len(list) == 0 {
		return RefreshResult{}, err
	}
	ids := make([]uuid.UUID, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	last, err := s.store.lastBilled(ctx, ids)
	if err != nil {
		return RefreshResult{}, err
	}
	return s.generate(ctx, prop, list, catchUp(last, today), today, s.now())
}

// catchUp is the billing's catch-up rule: an expense is billed from the
// period after its last billed one (last, by expense), or from its start,
// and at most MaxCatchUp months back from today's month.
func catchUp(last map[uuid.UUID]period.Date, today period.Date) func(*Expense) period.Date {
	cur, _ := period.PeriodOf(period.Month, today.Time())
	earliest := period.DateOf(cur.First.Time().AddDate(0, -(MaxCatchUp - 1), 0))
	return func(e *Expense) period.Date {
		since := e.StartDate
		if d, ok := last[e.ID]; ok {
			if sp, ok := span(e.Type); ok {
				if p, err := period.PeriodOf(sp, d.Time()); err == nil {
					since = p.Last.AddDays(1)
				}
			}
		}
		if since.Before(earliest) {
			since = earliest
		}
		return since
	}
}
