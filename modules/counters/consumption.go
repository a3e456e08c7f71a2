package counters

import (
	"context"
	"fmt"
	"time"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/period"
)

// MaxReportMonths bounds the months of one consumption report.
const MaxReportMonths = 600

// MonthUse is one month of a consumption report.
type MonthUse struct {
	Month       string   `json:"month"`
	Consumption Quantity `json:"consumption"`
	Readings    int      `json:"readings"`
}

// Report is the consumption of a counter per month.
type Report struct {
	CounterID string     `json:"counter_id"`
	Unit      string     `json:"unit"`
	By        string     `json:"by"`
	From      *string    `json:"from"`
	To        *string    `json:"to"`
	Total     Quantity   `json:"total"`
	Months    []MonthUse `json:"months"`
}

// month is a calendar month as a count of months since year 0.
type month int

func monthOf(d period.Date) month { return month(d.Year()*12 + int(d.Month()) - 1) }

func parseMonth(s string) (month, bool) {
	t, err := time.Parse("2006-01", s)
	if err != nil || len(s) != 7 || t.Year() < 1900 || t.Year() > 2999 {
		return 0, false
	}
	return month(t.Year()*12 + int(t.Month()) - 1), true
}

func (m month) String() string { return fmt.Sprintf("%04d-%02d", int(m)/12, int(m)%12+1) }

func (m month) first() period.Date { return period.NewDate(int(m)/12, time.Month(int(m)%12+1), 1) }

func (m month) last() period.Date { return (m + 1).first().AddDays(-1) }

// Consumption reports the counter's consumption per month of from..to
// (YYYY-MM, both included; by default the months of its first and last
// readings). The consumption between two readings counts in the month of
// the later one, as its charge does; months without readings show 0.
func (s *Service) Consumption(ctx context.Context, prop *properties.Property, rawID, rawFrom, rawTo string) (*Report, error) {
	c, err := s.Counter(ctx, prop, rawID)
	if err != nil {
		return nil, err
	}
	var from, to month
	var details []string
	if rawFrom != "" {
		var ok bool
		if from, ok = parseMonth(rawFrom); !ok {
			details = append(details, "from: must be a month (YYYY-MM)")
		}
	}
	if rawTo != "" {
		var ok bool
		if to, ok = parseMonth(rawTo); !ok {
			details = append(details, "to: must be a month (YYYY-MM)")
		}
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	rep := &Report{CounterID: c.ID.String(), Unit: c.Unit, By: "month", Months: []MonthUse{}}
	if rawFrom == "" || rawTo == "" {
		first, last, err := s.store.bounds(ctx, c.ID)
		if err != nil {
			return nil, err
		}
		switch {
		case first.IsZero() && rawFrom == "" && rawTo == "":
			return rep, nil // no readings and no range: nothing to report
		case first.IsZero() && rawFrom == "":
			from = to
		case first.IsZero():
			to = from
		case rawFrom == "" && rawTo == "":
			from, to = monthOf(first), monthOf(last)
		case rawFrom == "":
			from = min(monthOf(first), to)
		default:
			to = max(monthOf(last), from)
		}
	}
	if to < from {
		return nil, fault.Validation("to: must not be before from")
	}
	if int(to-from)+1 > MaxReportMonths {
		return nil, fault.Validation(fmt.Sprintf("to: a report covers at most %d months", MaxReportMonths))
	}
	rows, err := s.store.consumptions(ctx, c.ID, from.first(), to.last())
	if err != nil {
		return nil, err
	}
	rep.Months = make([]MonthUse, int(to-from)+1)
	for i := range rep.Months {
		rep.Months[i].Month = (from + month(i)).String()
	}
	for _, r := range rows {
		m := &rep.Months[monthOf(r.ReadOn)-from]
		m.Readings++
		if r.Consumption != nil {
			m.Consumption += *r.Consumption
			rep.Total += *r.Consumption
		}
	}
	f, t := from.String(), to.String()
	rep.From, rep.To = &f, &t
	return rep, nil
}
