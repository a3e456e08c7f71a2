package calendar

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/opcosts"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/printstyle"
)

// deadlineReach is how long after a contract's end its deposit deadline
// can fall (six months in Germany, the longest term DepositDeadline knows).
const deadlineReach = 200

// derived computes the workspace's derived events on the days from..to
// from two set-based reads of the contracts module (its contracts with
// their dates, its rent changes), never per property. kinds, when not
// empty, keeps those kinds only.
//
// The operating-cost statement deadlines come from the opcosts module
// (op, nil when it is off); they belong to a building, not a property or
// contract, so a property or contract filter leaves them out.
func derived(ctx context.Context, db bun.IDB, op *opcosts.Service, workspaceID int64, from, to period.Date, f contracts.DatedFilter, kinds map[string]bool, w words) ([]Occurrence, error) {
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
					w.say("contract_start", "number", c.Number), c.PropertyName))
			}
			if want(ContractEnd) && !end.IsZero() && within(end, from, to) {
				out = append(out, dayEvent(ContractEnd+":"+c.ID.String(), ContractEnd, c.ID, c.PropertyID, end,
					w.say("contract_end", "number", c.Number), c.PropertyName))
			}
			if want(DepositDeadline) && !end.IsZero() && c.DepositMinor != nil {
				d, statutory := contracts.DepositDeadline(c.Country, end, false)
				if within(d, from, to) {
					what := w.say("deposit_customary")
					if statutory {
						what = w.say("deposit_statutory")
					}
					out = append(out, dayEvent(DepositDeadline+":"+c.ID.String(), DepositDeadline, c.ID, c.PropertyID, d,
						w.say("deposit_deadline", "number", c.Number),
						w.say("deposit_detail", "property", c.PropertyName, "term", what, "country", c.Country, "date", w.st.Date(end))))
				}
			}
			if want(RentDue) && c.RentMinor != nil {
				out = rentDue(out, c, from, to, w)
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
				w.say("indexation", "number", r.Number),
				w.say("indexation_detail", "amount", w.st.Money(money.Amount(r.AmountMinor), r.Currency), "date", w.st.Date(r.From))))
		}
	}
	if want(OpcostDeadline) && op != nil && f.PropertyID == nil && f.ContractID == nil {
		list, err := op.DeadlinesIn(ctx, db, workspaceID, from, to)
		if err != nil {
			return nil, err
		}
		for i := range list {
			d := &list[i]
			t := d.Deadline.Time().UTC()
			out = append(out, Occurrence{ID: OpcostDeadline + ":" + d.BuildingID.String() + ":" + d.To.String(), Source: SourceDerived,
				Kind: OpcostDeadline, Title: w.say("opcost_deadline", "building", d.BuildingName),
				Description: w.say("opcost_deadline_detail", "from", w.st.Date(d.From), "to", w.st.Date(d.To), "source", d.Source),
				Start:       t, End: t, AllDay: true})
		}
	}
	return out, nil
}

// rentDue appends the rent due dates of c on the days from..to: one per
// month the contract runs in, on its due day, as its rent expense bills
// them (a month's charge is due on the due day of that month, also in the
// month the contract starts or ends).
func rentDue(out []Occurrence, c *contracts.Dated, from, to period.Date, w words) []Occurrence {
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
	prefix, title := RentDue+":"+c.ID.String()+":", w.say("rent_due", "number", c.Number)
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

// words are the derived events' texts in their reader's language (a
// member's profile locale: the calendar is the landlord's), from the
// translation catalogue, with dates and amounts as the locale writes them.
type words struct {
	t  map[string]string
	st printstyle.Style
}

// derivedKeys are the catalogue's keys of the derived events' texts.
var derivedKeys = []string{"contract_start", "contract_end", "deposit_deadline", "deposit_statutory", "deposit_customary",
	"deposit_detail", "indexation", "indexation_detail", "rent_due", "opcost_deadline", "opcost_deadline_detail"}

// wordsOf are the texts in locale (English where the catalogue has none).
func wordsOf(dicts *translations.Dictionaries, locale string) words {
	keys := make([]string, len(derivedKeys))
	for i, k := range derivedKeys {
		keys[i] = "calendar.derived." + k
	}
	t, _ := dicts.Select(locale, keys)
	return words{t: t, st: printstyle.Of(locale)}
}

// say is the text of key with each {name} of pairs (name, value, ...)
// filled in.
func (w words) say(key string, pairs ...string) string {
	text := w.t["calendar.derived."+key]
	for i := 0; i+1 < len(pairs); i += 2 {
		text = strings.ReplaceAll(text, "{"+pairs[i]+"}", pairs[i+1])
	}
	return text
}

func within(d, from, to period.Date) bool { return !d.Before(from) && !d.After(to) }

func dayEvent(id, kind string, contractID, propertyID uuid.UUID, d period.Date, title, desc string) Occurrence {
	c, p := contractID, propertyID
	t := d.Time().UTC()
	return Occurrence{ID: id, Source: SourceDerived, Kind: kind, Title: title, Description: desc,
		Start: t, End: t, AllDay: true, ContractID: &c, PropertyID: &p}
}
