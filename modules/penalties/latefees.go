package penalties

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/period"
)

// codeNotAllowed is the code of errNotAllowed.
const codeNotAllowed = "penalty_not_allowed"

// LateFeesKind is the periodic late fees of a workspace: every active
// property refreshed as POST .../penalties/refresh does (Refresh), so the
// law's rules and the once-per-charge key are the same whoever starts it.
// Its default time is after the billing's (06:00), so that a day's run
// sees the charges billed that morning. A property the law refuses (422
// penalty_not_allowed) gets nothing, as its refresh would, and is a
// problem of the run, which goes on with the next property.
func LateFeesKind(s *Service, props *properties.Service) jobs.Kind {
	return jobs.Kind{Name: "late_fees", At: "06:30", After: []string{"billing"}, Run: func(ctx context.Context, run jobs.Run) (map[string]int, []string, error) {
		counts := map[string]int{"properties": 0, "fees_created": 0, "skipped": 0, "errors": 0, "refused": 0}
		var problems []string
		today, err := period.ParseDate(run.LocalDate)
		if err != nil {
			return counts, nil, fmt.Errorf("late fees: run date %q: %w", run.LocalDate, err)
		}
		err = props.EachActive(ctx, run.WorkspaceID, func(prop *properties.Property) error {
			res, err := s.RefreshOn(ctx, prop, today)
			var refused *fault.Error
			if errors.As(err, &refused) && refused.Code == codeNotAllowed {
				// The landlord has to change the contract; trying the run
				// again would not help.
				counts["properties"]++
				counts["refused"]++
				problems = append(problems, fmt.Sprintf("property %s (%s): no late fee charged: %s", prop.ID, prop.Name, strings.Join(refused.Details, "; ")))
				return nil
			}
			if err != nil {
				// Anything else (the database, a busy lock) is retried with
				// the whole run; the penalties made so far stay (one per
				// charge ever).
				return fmt.Errorf("property %s: %w", prop.ID, err)
			}
			counts["properties"]++
			counts["fees_created"] += res.Created
			counts["skipped"] += res.Skipped
			counts["errors"] += res.Errors
			if res.Errors > 0 {
				problems = append(problems, fmt.Sprintf("property %s (%s): %d late fees could not be computed; see the log", prop.ID, prop.Name, res.Errors))
			}
			return nil
		})
		return counts, problems, err
	}}
}
