package opcosts

import (
	"time"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/period"
)

type statementJSON struct {
	ID             uuid.UUID      `json:"id"`
	BuildingID     uuid.UUID      `json:"building_id"`
	PeriodFrom     period.Date    `json:"period_from"`
	PeriodTo       period.Date    `json:"period_to"`
	Status         string         `json:"status"`
	CorrectsID     *uuid.UUID     `json:"corrects_id"`
	Currency       string         `json:"currency"`
	Deadline       *period.Date   `json:"deadline"`
	DeadlineSource *string        `json:"deadline_source"`
	LateNotAtFault bool           `json:"late_not_at_fault"`
	PeriodDays     int            `json:"period_days"`
	Categories     []CategoryLine `json:"categories"`
	Contracts      []ContractLine `json:"contracts"`
	CO2            *CO2Split      `json:"co2"`
	Estimates      []Estimate     `json:"estimates"`
	CreatedAt      string         `json:"created_at"`
	PostedAt       *string        `json:"posted_at"`
}

func toJSON(country string, st *Statement, comp *Computation) statementJSON {
	out := statementJSON{ID: st.ID, BuildingID: st.BuildingID, PeriodFrom: st.From, PeriodTo: st.To, Status: st.Status,
		Currency: st.Currency, LateNotAtFault: st.LateNotAtFault, PeriodDays: comp.PeriodDays, Categories: comp.Categories,
		Contracts: comp.Contracts, CO2: comp.CO2, Estimates: comp.Estimates, CorrectsID: st.CorrectsID, CreatedAt: st.CreatedAt.UTC().Format(time.RFC3339)}
	if out.Categories == nil {
		out.Categories = []CategoryLine{}
	}
	if out.Estimates == nil {
		out.Estimates = []Estimate{}
	}
	if out.Contracts == nil {
		out.Contracts = []ContractLine{}
	}
	for i := range out.Contracts {
		if out.Contracts[i].Costs == nil {
			out.Contracts[i].Costs = []CostLine{}
		}
		// Drafts computed before the parts existed spread all of a
		// category.
		for j := range out.Contracts[i].Costs {
			if cl := &out.Contracts[i].Costs[j]; cl.Part == "" {
				cl.Part, cl.Percent = PartAll, 100
			}
		}
	}
	if d, ok := Deadline(country, st.To); ok {
		src := law.Of(country).OperatingCosts.Source
		out.Deadline, out.DeadlineSource = &d, &src
	}
	if st.PostedAt != nil {
		v := st.PostedAt.UTC().Format(time.RFC3339)
		out.PostedAt = &v
	}
	return out
}
