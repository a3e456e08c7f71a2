package dashboard

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/banking"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/opcosts"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/repairs"
	"github.com/propman/propman/modules/reports"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The bounds of each list: a dashboard is a glance, the full lists are
// the reports' and the modules' own.
const (
	maxArrears   = 10
	maxDue       = 20
	maxRepairs   = 10
	maxDeadlines = 20
	// dueDays is "this week": today and the 6 days after it.
	dueDays = 7
	// deadlineLookback bounds how far back a passed statement deadline is
	// still listed (opcosts walks a building's periods from its latest
	// posted statement).
	deadlineLookback = 10 * 366
)

// ServiceParams are the service's dependencies; the modules that may be
// off reach it as optional ones, their part of the answer then null.
type ServiceParams struct {
	fx.In

	DB      *bun.DB
	Clock   clock.Clock
	Config  *config.Config
	Dicts   *translations.Dictionaries
	Reports *reports.Service `optional:"true"`
	Repairs *repairs.Service `optional:"true"`
	Opcosts *opcosts.Service `optional:"true"`
}

// Service reads the dashboard.
type Service struct{ p ServiceParams }

// NewService returns the service.
func NewService(p ServiceParams) *Service { return &Service{p: p} }

// Dashboard is the answer; a list is null when the module it comes from
// is off.
type Dashboard struct {
	AsOf              period.Date      `json:"as_of"`
	Arrears           []Arrear         `json:"arrears"`
	DueThisWeek       []Due            `json:"due_this_week"`
	OpenRepairs       *Repairs         `json:"open_repairs"`
	BankLinesToReview *BankLines       `json:"bank_lines_to_review"`
	OpcostDeadlines   []OpcostDeadline `json:"opcost_deadlines"`
	Warnings          []Warning        `json:"warnings"`
}

// Arrear is a contract's (or a property's, for charges of no contract)
// overdue debt.
type Arrear struct {
	ContractID     *uuid.UUID   `json:"contract_id"`
	ContractNumber *string      `json:"contract_number"`
	TenantName     *string      `json:"tenant_name"`
	PropertyID     uuid.UUID    `json:"property_id"`
	PropertyName   string       `json:"property_name"`
	Currency       string       `json:"currency"`
	Overdue        money.Amount `json:"overdue"`
	OldestDue      period.Date  `json:"oldest_due"`
}

// Due is an open charge falling due this week.
type Due struct {
	ChargeID     uuid.UUID    `json:"charge_id"`
	PropertyID   uuid.UUID    `json:"property_id"`
	PropertyName string       `json:"property_name"`
	ContractID   *uuid.UUID   `json:"contract_id"`
	Name         string       `json:"name"`
	Currency     string       `json:"currency"`
	Open         money.Amount `json:"open_amount"`
	DueDate      period.Date  `json:"due_date"`
}

// Repairs are the workspace's open repair requests.
type Repairs struct {
	ByStatus map[string]int `json:"by_status"`
	Total    int            `json:"total"`
	Oldest   []Repair       `json:"oldest"`
}

// Repair is an open request with its deadline.
type Repair struct {
	ID         uuid.UUID `json:"id"`
	PropertyID uuid.UUID `json:"property_id"`
	Title      string    `json:"title"`
	Status     string    `json:"status"`
	Urgency    string    `json:"urgency"`
	Deadline   string    `json:"deadline"`
	CreatedAt  string    `json:"created_at"`
}

// BankLines counts the imported lines waiting for a person.
type BankLines struct {
	Suggested int `json:"suggested"`
	Unmatched int `json:"unmatched"`
	Total     int `json:"total"`
}

// OpcostDeadline is a period without a posted statement whose deadline
// is at most 60 days away or passed.
type OpcostDeadline struct {
	BuildingID   uuid.UUID   `json:"building_id"`
	BuildingName string      `json:"building_name"`
	PeriodFrom   period.Date `json:"period_from"`
	PeriodTo     period.Date `json:"period_to"`
	Deadline     period.Date `json:"deadline"`
	DaysLeft     int         `json:"days_left"`
	Source       string      `json:"source"`
}

// The kinds of warning.
const (
	WarnOpcostNear   = "opcost_deadline_near"
	WarnOpcostPassed = "opcost_deadline_passed"
	WarnRepairPassed = "repair_deadline_passed"
)

// Warning is something to act on, in the reader's language.
type Warning struct {
	Kind       string      `json:"kind"`
	Message    string      `json:"message"`
	SubjectIDs []string    `json:"subject_ids"`
	Date       period.Date `json:"date"`
}

// Get reads the workspace's dashboard, its words in locale.
func (s *Service) Get(ctx context.Context, workspaceID int64, locale string) (*Dashboard, error) {
	now := s.p.Clock.Now().UTC()
	today := period.DateOf(now)
	sty := printforms.StyleOf(locale)
	words, _ := s.p.Dicts.Select(locale, []string{"dashboard.warning." + WarnOpcostNear, "dashboard.warning." + WarnOpcostPassed,
		"dashboard.warning." + WarnRepairPassed})
	say := func(kind string, vars ...string) string {
		key := "dashboard.warning." + kind
		text := words[key]
		if text == "" {
			text = key
		}
		return strings.NewReplacer(vars...).Replace(text)
	}
	out := &Dashboard{AsOf: today, Warnings: []Warning{}}

	if s.p.Reports != nil {
		rows, err := s.p.Reports.TopArrears(ctx, workspaceID, today, maxArrears)
		if err != nil {
			return nil, err
		}
		out.Arrears = make([]Arrear, 0, len(rows))
		for _, r := range rows {
			a := Arrear{ContractID: r.ContractID, PropertyID: r.PropertyID, PropertyName: r.PropertyName, Currency: r.Currency,
				Overdue: r.Total, OldestDue: r.OldestDue}
			if r.ContractNumber.Valid {
				v := r.ContractNumber.String
				a.ContractNumber = &v
			}
			if r.TenantName.Valid {
				v := r.TenantName.String
				a.TenantName = &v
			}
			out.Arrears = append(out.Arrears, a)
		}
	}

	due, err := expenses.DueIn(ctx, s.p.DB, workspaceID, today, today.AddDays(dueDays-1), maxDue)
	if err != nil {
		return nil, err
	}
	out.DueThisWeek = make([]Due, 0, len(due))
	for _, d := range due {
		out.DueThisWeek = append(out.DueThisWeek, Due{ChargeID: d.ID, PropertyID: d.PropertyID, PropertyName: d.PropertyName,
			ContractID: d.ContractID, Name: d.Name, Currency: d.Currency, Open: d.Open, DueDate: d.DueDate})
	}

	if s.p.Repairs != nil {
		counts, oldest, err := repairs.OpenIn(ctx, s.p.DB, workspaceID, maxRepairs)
		if err != nil {
			return nil, err
		}
		r := &Repairs{ByStatus: map[string]int{}, Oldest: make([]Repair, 0, len(oldest))}
		for _, st := range repairs.OpenStatuses {
			r.ByStatus[st] = counts[st]
			r.Total += counts[st]
		}
		for _, o := range oldest {
			r.Oldest = append(r.Oldest, Repair{ID: o.ID, PropertyID: o.PropertyID, Title: o.Title, Status: o.Status, Urgency: o.Urgency,
				Deadline: o.DeadlineAt.UTC().Format(time.RFC3339), CreatedAt: o.CreatedAt.UTC().Format(time.RFC3339)})
		}
		out.OpenRepairs = r
		late, err := repairs.OverdueIn(ctx, s.p.DB, workspaceID, now, maxRepairs)
		if err != nil {
			return nil, err
		}
		for _, o := range late {
			d := period.DateOf(o.DeadlineAt)
			out.Warnings = append(out.Warnings, Warning{Kind: WarnRepairPassed, SubjectIDs: []string{o.ID.String(), o.PropertyID.String()}, Date: d,
				Message: say(WarnRepairPassed, "{title}", o.Title, "{deadline}", sty.Date(d))})
		}
	}

	if on, err := s.p.Config.ModuleEnabled("banking"); err != nil {
		return nil, err
	} else if on {
		sug, unm, err := banking.ToReview(ctx, s.p.DB, workspaceID)
		if err != nil {
			return nil, err
		}
		out.BankLinesToReview = &BankLines{Suggested: sug, Unmatched: unm, Total: sug + unm}
	}

	if s.p.Opcosts != nil {
		list, err := s.p.Opcosts.DeadlinesIn(ctx, s.p.DB, workspaceID, today.AddDays(-deadlineLookback), today.AddDays(opcosts.WarningDays))
		if err != nil {
			return nil, err
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].Deadline.Before(list[j].Deadline) })
		if len(list) > maxDeadlines {
			list = list[:maxDeadlines]
		}
		out.OpcostDeadlines = make([]OpcostDeadline, 0, len(list))
		for _, d := range list {
			left := int(d.Deadline.Time().Sub(today.Time()).Hours() / 24)
			out.OpcostDeadlines = append(out.OpcostDeadlines, OpcostDeadline{BuildingID: d.BuildingID, BuildingName: d.BuildingName,
				PeriodFrom: d.From, PeriodTo: d.To, Deadline: d.Deadline, DaysLeft: left, Source: d.Source})
			kind := WarnOpcostNear
			if left < 0 {
				kind = WarnOpcostPassed
			}
			out.Warnings = append(out.Warnings, Warning{Kind: kind, SubjectIDs: []string{d.BuildingID.String()}, Date: d.Deadline,
				Message: say(kind, "{building}", d.BuildingName, "{from}", sty.Date(d.From), "{to}", sty.Date(d.To),
					"{deadline}", sty.Date(d.Deadline), "{days}", strconv.Itoa(left), "{source}", d.Source)})
		}
	}
	sort.SliceStable(out.Warnings, func(i, j int) bool { return out.Warnings[i].Date.Before(out.Warnings[j].Date) })
	return out, nil
}
