package opcosts

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/buildings"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// WarningDays is how near a statement's deadline is when it is warned of.
const WarningDays = 60

// The states of a building's latest ended period.
const (
	// DeadlineOpen: no statement of the period is posted.
	DeadlineOpen = "open"
	// DeadlinePosted: the statement of the building's latest ended period
	// is posted.
	DeadlinePosted = "posted"
	// DeadlineNone: the building's country sets no deadline.
	DeadlineNone = "no_deadline"
)

// BuildingDeadline is the statement deadline of a building's latest
// ended period.
type BuildingDeadline struct {
	BuildingID   uuid.UUID    `json:"building_id"`
	BuildingName string       `json:"building_name"`
	CountryCode  string       `json:"country_code"`
	From         period.Date  `json:"period_from"`
	To           period.Date  `json:"period_to"`
	Status       string       `json:"status"`
	Deadline     *period.Date `json:"deadline"`
	DaysLeft     *int         `json:"days_left"`
	Warning      bool         `json:"warning"`
	// Overdue counts the building's earlier periods since its latest
	// posted statement: each ended more than a year before the latest,
	// so its deadline has passed without a statement posted.
	Overdue int    `json:"overdue_periods"`
	Source  string `json:"source"`
	// DraftID is a draft statement of exactly the period.
	DraftID *uuid.UUID `json:"draft_statement_id"`
}

// cycle is a building's sequence of yearly periods: the first starts the
// day after its latest posted statement, or, when none was posted, on the
// 1 January of the year before the building was recorded (a landlord who
// records a building owes the statement of the year that ended).
type cycle struct {
	start  period.Date
	posted *Statement
}

func cycleOf(b *buildings.Building, stmts []Statement) cycle {
	var c cycle
	for i := range stmts {
		st := &stmts[i]
		if (st.Status == Posted || st.Status == Superseded) && (c.posted == nil || st.To.After(c.posted.To)) {
			c.posted = st
		}
	}
	if c.posted != nil {
		c.start = c.posted.To.AddDays(1)
	} else {
		c.start = period.NewDate(b.CreatedAt.Year()-1, 1, 1)
	}
	return c
}

// period is the cycle's k-th period (from 0).
func (c cycle) period(k int) (period.Date, period.Date) {
	from := period.DateOf(c.start.Time().AddDate(k, 0, 0))
	return from, period.DateOf(c.start.Time().AddDate(k+1, 0, 0)).AddDays(-1)
}

// maxCycles bounds the periods walked from a cycle's start.
const maxCycles = 200

// deadlineOf is the deadline of the building's latest period ended
// before today.
func deadlineOf(b *buildings.Building, stmts []Statement, today period.Date) BuildingDeadline {
	out := BuildingDeadline{BuildingID: b.ID, BuildingName: b.Name, CountryCode: b.Country, Status: DeadlineOpen}
	c := cycleOf(b, stmts)
	k := -1
	for i := 0; i < maxCycles; i++ {
		if _, to := c.period(i); !to.Before(today) {
			break
		}
		k = i
	}
	if k < 0 {
		out.From, out.To, out.Status = c.posted.From, c.posted.To, DeadlinePosted
	} else {
		out.From, out.To = c.period(k)
		out.Overdue = k
		for i := range stmts {
			if st := &stmts[i]; st.Status == Draft && st.From == out.From && st.To == out.To {
				id := st.ID
				out.DraftID = &id
			}
		}
	}
	d, ok := Deadline(b.Country, out.To)
	if !ok {
		out.Status = DeadlineNone
		return out
	}
	out.Source = law.Of(b.Country).OperatingCosts.Source
	days := int(d.Time().Sub(today.Time()).Hours() / 24)
	out.Deadline, out.DaysLeft = &d, &days
	// The latest ended period's deadline lies ahead: it ended less than
	// a year ago.
	out.Warning = out.Status == DeadlineOpen && days <= WarningDays
	return out
}

// Deadlines returns a page of the buildings of p's workspace (in the
// buildings list's order) with the statement deadline of each one's
// latest ended period.
func (s *Service) Deadlines(ctx context.Context, p *auth.Principal, q listing.Query) ([]BuildingDeadline, listing.Result, error) {
	list, res, err := s.p.Buildings.List(ctx, p, q)
	if err != nil {
		return nil, listing.Result{}, err
	}
	ids := make([]uuid.UUID, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	stmts, err := periodsOf(ctx, s.p.DB, ids)
	if err != nil {
		return nil, listing.Result{}, err
	}
	out := make([]BuildingDeadline, len(list))
	today := s.today()
	for i := range list {
		out[i] = deadlineOf(&list[i], stmts[list[i].ID], today)
	}
	return out, res, nil
}

// DeadlineDay is the deadline of one period of a building without a
// posted statement, for the calendar.
type DeadlineDay struct {
	BuildingID   uuid.UUID
	BuildingName string
	From, To     period.Date
	Deadline     period.Date
	Source       string
}

// DeadlinesIn returns, through db, the statement deadlines falling on the
// days from..to of the workspace's buildings' periods that have no posted
// statement (in a country whose law sets one), by building and day. Two
// reads over the workspace, whatever its size.
func (s *Service) DeadlinesIn(ctx context.Context, db bun.IDB, workspaceID int64, from, to period.Date) ([]DeadlineDay, error) {
	list, err := buildings.InWorkspace(ctx, db, workspaceID)
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, 0, len(list))
	for i := range list {
		if law.Of(list[i].Country).OperatingCosts.DeadlineMonths > 0 {
			ids = append(ids, list[i].ID)
		}
	}
	stmts, err := periodsOf(ctx, db, ids)
	if err != nil {
		return nil, err
	}
	var out []DeadlineDay
	for i := range list {
		b := &list[i]
		if law.Of(b.Country).OperatingCosts.DeadlineMonths == 0 {
			continue
		}
		c := cycleOf(b, stmts[b.ID])
		for k := 0; k < maxCycles; k++ {
			pf, pt := c.period(k)
			d, _ := Deadline(b.Country, pt)
			if d.After(to) {
				break
			}
			if !d.Before(from) {
				out = append(out, DeadlineDay{BuildingID: b.ID, BuildingName: b.Name, From: pf, To: pt, Deadline: d,
					Source: law.Of(b.Country).OperatingCosts.Source})
			}
		}
	}
	return out, nil
}
