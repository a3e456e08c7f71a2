package calendar

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// deadlineReach is how long after a contract's end its deposit deadline
// can fall (six months in Germany, the longest term DepositDeadline knows).
const deadlineReach = 200

// derived computes the workspace's derived events on the days from..to
// from two set-based reads of the contracts module (its contracts with
// their dates, its rent changes), never per property. kinds, when not
// empty, keeps those kinds only.
func derived(ctx context.Context, db bun.IDB, workspaceID int64, from, to period.Date, f contracts.DatedFilter, kinds map[string]bool) ([]Occurrence, error) {
	want := func(k string) bool { return len(kinds) == 0 || kinds[k] }
	var out []Occurrence
	if want(RentDue) || want(ContractStart) || want(ContractEnd) || want(DepositDeadline) {
		list, err := contracts.DatedIn(ctx, db, workspaceID, from.AddDays(-deadlineReach), to, f)
		if err != nil {
			return nil, err
		}
		for i := range list {
			c := &list[i]
			end := c.EndsOn()
			if want(ContractStart) && within(c.StartDate, from, to) {
				out = append(out, dayEvent(ContractStart+":"+c.ID.String(), ContractStart, c.ID, c.PropertyID, c.StartDate,
					fmt.Sprintf("Contract %s starts", c.Number), c.PropertyName))
			}
			if want(ContractEnd) && !end.IsZero() && within(end, from, to) {
				out = append(out, dayEvent(ContractEnd+":"+c.ID.String(), ContractEnd, c.ID, c.PropertyID, end,
					fmt.Sprintf("Contract %s ends", c.Number), c.PropertyName))
			}
			if want(DepositDeadline) && !end.IsZero() && c.DepositMinor != nil {
				d, statutory := contracts.DepositDeadline(c.Country, end, false)
				if within(d, from, to) {
					what := "customary term"
					if statutory {
						what = "statutory term"
					}
					out = append(out, dayEvent(DepositDeadline+":"+c.ID.String(), DepositDeadline, c.ID, c.PropertyID, d,
						fmt.Sprintf("Deposit settlement deadline, contract %s", c.Number),
						fmt.Sprintf("%s; %s in %s, from the end on %s", c.PropertyName, what, c.Country, end)))
				}
			}
			if want(RentDue) && c.RentMinor != nil {
				out = rentDue(out, c, from, to)
			}
		}
	}
	if want(Indexation) {
		list, err := contracts.RentChangesIn(ctx, db, workspaceID, from, to, f)
		if err != nil {
			return nil, err
		}
		for i := range list {
			r := &list[i]
			out = append(out, dayEvent(Indexation+":"+r.ID.String(), Indexation, r.ContractID, r.PropertyID, r.From,
				fmt.Sprintf("Rent change, contract %s", r.Number),
				fmt.Sprintf("New rent %s %s from %s", money.Amount(r.AmountMinor), r.Currency, r.From)))
		}
	}
	return out, nil
}

// rentDue appends the rent due dates of c on the days from..to: one per
// month the contract runs in, on its due day, as its rent expense bills
// them (a month's charge is due on the due day of that month, also in the
// month the contract starts or ends).
func rentDue(out []Occurrence, c *contracts.Dated, from, to period.Date) []Occurrence {
	day := c.DueDay
	if day < 1 || day > 28 {
		day = 1
	}
	first := c.StartDate
	if first.Before(from) {
		first = from
	}
	last := to
	if end := c.EndsOn(); !end.IsZero() && end.Before(last) {
		last = end
	}
	// Due dates of months a few days outside first..last can still fall in
	// the window: walk the months from first's to last's.
	m := time.Date(first.Year(), first.Month(), 1, 0, 0, 0, 0, time.UTC)
	if c.StartDate.Before(from) {
		m = time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	stop := time.Date(last.Year(), last.Month(), 1, 0, 0, 0, 0, time.UTC)
	// Made once per contract: a portfolio's year has twelve of each.
	prefix, title := RentDue+":"+c.ID.String()+":", "Rent due, contract "+c.Number
	contractID, propertyID := c.ID, c.PropertyID
	for ; !m.After(stop); m = m.AddDate(0, 1, 0) {
		due := period.NewDate(m.Year(), m.Month(), day)
		if !within(due, from, to) {
			continue
		}
		t := due.Time().UTC()
		out = append(out, Occurrence{ID: prefix + due.String(), Source: SourceDerived, Kind: RentDue, Title: title,
			Description: c.PropertyName, Start: t, End: t, AllDay: true, ContractID: &contractID, PropertyID: &propertyID})
	}
	return out
}

func within(d, from, to period.Date) bool { return !d.Before(from) && !d.After(to) }

func dayEvent(id, kind string, contractID, propertyID uuid.UUID, d period.Date, title, desc string) Occurrence {
	c, p := contractID, propertyID
	t := d.Time().UTC()
	return Occurrence{ID: id, Source: SourceDerived, Kind: kind, Title: title, Description: desc,
		Start: t, End: t, AllDay: true, ContractID: &c, PropertyID: &p}
}
