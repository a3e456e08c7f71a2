package calendar

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/period"
)

// nullable is a field a partial update may set, clear (null) or leave
// alone (absent).
type nullable[T any] struct {
	Set   bool
	Value *T
}

func (n *nullable[T]) UnmarshalJSON(b []byte) error {
	n.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		n.Value = nil
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	n.Value = &v
	return nil
}

// overrideRequest moves or retitles one occurrence of a recurring event.
type overrideRequest struct {
	Occurrence  string  `json:"occurrence"`
	StartsAt    string  `json:"starts_at"`
	EndsAt      *string `json:"ends_at"`
	Title       *string `json:"title"`
	Description *string `json:"description" validate:"multiline"`
}

// eventRequest is the body of a create (every required field) and of a
// partial update (only what changes).
type eventRequest struct {
	Title       *string            `json:"title"`
	Description *string            `json:"description" validate:"multiline"`
	Kind        *string            `json:"kind"`
	StartsAt    *string            `json:"starts_at"`
	EndsAt      nullable[string]   `json:"ends_at"`
	AllDay      *bool              `json:"all_day"`
	TimeZone    *string            `json:"time_zone"`
	RRule       nullable[string]   `json:"rrule"`
	ExDates     *[]string          `json:"exdates"`
	Overrides   *[]overrideRequest `json:"overrides"`
	PropertyID  nullable[string]   `json:"property_id"`
	ContractID  nullable[string]   `json:"contract_id"`
	Attendees   *[]string          `json:"attendees"`
	Reminders   *[]int             `json:"reminders"`
}

// draft is an event as a request describes it, before its references are
// checked against the workspace.
type draft struct {
	Event
	exdates   []time.Time
	overrides []Override
	attendees []uuid.UUID
	reminders []int
}

// current returns the text form of an event's times and lists, for a
// partial update to start from.
func current(e *Event) (eventRequest, error) {
	loc, err := time.LoadLocation(e.TimeZone)
	if err != nil {
		return eventRequest{}, err
	}
	s, err := newSchedule(e)
	if err != nil {
		return eventRequest{}, err
	}
	r := eventRequest{Title: &e.Title, Description: &e.Description, Kind: &e.Kind, AllDay: &e.AllDay, TimeZone: &e.TimeZone}
	start, end := timeText(e.StartsAt, e.AllDay, loc), timeText(e.EndsAt, e.AllDay, loc)
	r.StartsAt = &start
	r.EndsAt = nullable[string]{Set: true, Value: &end}
	if e.RRule != "" {
		r.RRule = nullable[string]{Set: true, Value: &e.RRule}
	}
	ex := make([]string, len(s.exdates))
	for i, t := range s.exdates {
		ex[i] = timeText(t, e.AllDay, loc)
	}
	r.ExDates = &ex
	ov := make([]overrideRequest, len(s.overrides))
	for i, o := range s.overrides {
		end := timeText(o.EndsAt, e.AllDay, loc)
		ov[i] = overrideRequest{Occurrence: timeText(o.Occurrence, e.AllDay, loc), StartsAt: timeText(o.StartsAt, e.AllDay, loc),
			EndsAt: &end, Title: o.Title, Description: o.Description}
	}
	r.Overrides = &ov
	if e.PropertyID != nil {
		v := e.PropertyID.String()
		r.PropertyID = nullable[string]{Set: true, Value: &v}
	}
	if e.ContractID != nil {
		v := e.ContractID.String()
		r.ContractID = nullable[string]{Set: true, Value: &v}
	}
	var att []string
	var rem []int
	if err := json.Unmarshal([]byte(e.Attendees), &att); err != nil {
		return eventRequest{}, err
	}
	if err := json.Unmarshal([]byte(e.Reminders), &rem); err != nil {
		return eventRequest{}, err
	}
	r.Attendees, r.Reminders = &att, &rem
	return r, nil
}

// merge lays the fields an update sends over base. A change of all_day or
// time_zone re-reads every time of the event in the new terms, so an
// update that changes them sends the times too.
func merge(base, upd eventRequest) eventRequest {
	if upd.Title != nil {
		base.Title = upd.Title
	}
	if upd.Description != nil {
		base.Description = upd.Description
	}
	if upd.Kind != nil {
		base.Kind = upd.Kind
	}
	if upd.StartsAt != nil {
		base.StartsAt = upd.StartsAt
	}
	if upd.EndsAt.Set {
		base.EndsAt = upd.EndsAt
	}
	if upd.AllDay != nil {
		base.AllDay = upd.AllDay
	}
	if upd.TimeZone != nil {
		base.TimeZone = upd.TimeZone
	}
	if upd.RRule.Set {
		base.RRule = upd.RRule
		// An event that stops recurring has no occurrences to except.
		if upd.RRule.Value == nil || strings.TrimSpace(*upd.RRule.Value) == "" {
			base.ExDates, base.Overrides = nil, nil
		}
	}
	if upd.ExDates != nil {
		base.ExDates = upd.ExDates
	}
	if upd.Overrides != nil {
		base.Overrides = upd.Overrides
	}
	if upd.PropertyID.Set {
		base.PropertyID = upd.PropertyID
	}
	if upd.ContractID.Set {
		base.ContractID = upd.ContractID
	}
	if upd.Attendees != nil {
		base.Attendees = upd.Attendees
	}
	if upd.Reminders != nil {
		base.Reminders = upd.Reminders
	}
	return base
}

// timeText is a time as the API writes it: a date for all-day events, else
// RFC 3339 in the event's zone.
func timeText(t time.Time, allDay bool, loc *time.Location) string {
	if allDay {
		return t.UTC().Format(time.DateOnly)
	}
	return t.In(loc).Format(time.RFC3339)
}

// earliest and latest bound every time of an event.
var (
	earliest = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	latest   = time.Date(2100, 12, 31, 0, 0, 0, 0, time.UTC)
)

// parseTime reads a date (all-day) or an RFC 3339 instant.
func parseTime(field, s string, allDay bool) (time.Time, string) {
	if allDay {
		d, err := period.ParseDate(s)
		if err != nil {
			return time.Time{}, field + ": must be a date YYYY-MM-DD (the event is all-day)"
		}
		t := d.Time().UTC()
		if t.Before(earliest) || t.After(latest) {
			return time.Time{}, field + ": must be from 2000-01-01 to 2100-12-31"
		}
		return t, ""
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, field + ": must be a date-time in RFC 3339 with its offset, e.g. 2026-03-29T10:00:00+02:00"
	}
	if t.Before(earliest) || t.After(latest) {
		return time.Time{}, field + ": must be from 2000-01-01 to 2100-12-31"
	}
	return t.UTC().Truncate(time.Second), ""
}

// zone loads an IANA time zone name ("Local" and "" are not names).
func zone(name string) (*time.Location, bool) {
	if name == "" || name == "Local" || len(name) > 64 || strings.Contains(name, "..") || strings.HasPrefix(name, "/") {
		return nil, false
	}
	loc, err := time.LoadLocation(name)
	return loc, err == nil
}

// build checks a whole request (create, or an update merged onto the
// event) and returns the event it describes; every broken rule is one
// line of a 400, a rule with too many occurrences a 422.
func build(r eventRequest) (*draft, error) {
	var details []string
	bad := func(format string, args ...any) { details = append(details, fmt.Sprintf(format, args...)) }
	d := &draft{}
	e := &d.Event
	switch {
	case r.Title == nil || strings.TrimSpace(*r.Title) == "":
		bad("title: is required")
	case utf8.RuneCountInString(*r.Title) > maxTitle:
		bad("title: must be at most %d characters", maxTitle)
	default:
		e.Title = strings.TrimSpace(*r.Title)
	}
	if r.Description != nil {
		if utf8.RuneCountInString(*r.Description) > maxDescription {
			bad("description: must be at most %d characters", maxDescription)
		}
		e.Description = *r.Description
	}
	switch {
	case r.Kind == nil:
		bad("kind: is required")
	case !slices.Contains(Kinds, *r.Kind):
		bad("kind: must be one of %s", strings.Join(Kinds, ", "))
	default:
		e.Kind = *r.Kind
	}
	e.AllDay = r.AllDay != nil && *r.AllDay
	e.TimeZone = "UTC"
	if r.TimeZone != nil {
		e.TimeZone = *r.TimeZone
	}
	loc, ok := zone(e.TimeZone)
	if !ok {
		bad("time_zone: must be an IANA time zone name such as Europe/Berlin")
		loc = time.UTC
	}
	if r.StartsAt == nil {
		bad("starts_at: is required")
	} else if t, msg := parseTime("starts_at", *r.StartsAt, e.AllDay); msg != "" {
		bad("%s", msg)
	} else {
		e.StartsAt = t
	}
	switch {
	case r.EndsAt.Value != nil:
		if t, msg := parseTime("ends_at", *r.EndsAt.Value, e.AllDay); msg != "" {
			bad("%s", msg)
		} else {
			e.EndsAt = t
		}
	case e.AllDay:
		e.EndsAt = e.StartsAt
	default:
		bad("ends_at: is required unless all_day is true")
	}
	if !e.StartsAt.IsZero() && !e.EndsAt.IsZero() && e.EndsAt.Before(e.StartsAt) {
		bad("ends_at: must not be before starts_at")
	}
	if r.PropertyID.Value != nil {
		if id, err := uuid.Parse(*r.PropertyID.Value); err != nil {
			bad("property_id: must be a UUID")
		} else {
			e.PropertyID = &id
		}
	}
	if r.ContractID.Value != nil {
		if id, err := uuid.Parse(*r.ContractID.Value); err != nil {
			bad("contract_id: must be a UUID")
		} else {
			e.ContractID = &id
		}
	}
	if r.Attendees != nil {
		if len(*r.Attendees) > maxAttendees {
			bad("attendees: must be at most %d", maxAttendees)
		} else {
			for i, a := range *r.Attendees {
				id, err := uuid.Parse(a)
				switch {
				case err != nil:
					bad("attendees[%d]: must be a contragent's id (UUID)", i)
				case slices.Contains(d.attendees, id):
					bad("attendees[%d]: is named twice", i)
				default:
					d.attendees = append(d.attendees, id)
				}
			}
		}
	}
	if r.Reminders != nil {
		if len(*r.Reminders) > maxReminders {
			bad("reminders: must be at most %d", maxReminders)
		} else {
			for i, m := range *r.Reminders {
				switch {
				case m < 0 || m > maxReminderMin:
					bad("reminders[%d]: must be from 0 to %d minutes before the start", i, maxReminderMin)
				case slices.Contains(d.reminders, m):
					bad("reminders[%d]: is given twice", i)
				default:
					d.reminders = append(d.reminders, m)
				}
			}
		}
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	// The rule, its exceptions and overrides need valid times to be read.
	e.UntilAt = &e.EndsAt
	if r.RRule.Value != nil && strings.TrimSpace(*r.RRule.Value) != "" {
		rule, text, last, err := parseRule(*r.RRule.Value, dtstart(e, loc), e.AllDay)
		if err != nil {
			return nil, err
		}
		e.RRule = text
		e.UntilAt = nil
		if !last.IsZero() {
			u := last.UTC().Add(e.EndsAt.Sub(e.StartsAt))
			e.UntilAt = &u
		}
		s := &schedule{e: e, loc: loc, rule: rule}
		if err := d.exceptions(r, s); err != nil {
			return nil, err
		}
	} else if (r.ExDates != nil && len(*r.ExDates) > 0) || (r.Overrides != nil && len(*r.Overrides) > 0) {
		return nil, fault.Validation("exdates: and overrides need an rrule (a recurring event)")
	}
	return d, nil
}

// exceptions checks the exdates and overrides of a recurring event: each
// names an occurrence the rule gives.
func (d *draft) exceptions(r eventRequest, s *schedule) error {
	var details []string
	bad := func(format string, args ...any) { details = append(details, fmt.Sprintf(format, args...)) }
	e := &d.Event
	if r.ExDates != nil {
		if len(*r.ExDates) > maxExDates {
			return fault.Validation(fmt.Sprintf("exdates: must be at most %d", maxExDates))
		}
		for i, x := range *r.ExDates {
			t, msg := parseTime(fmt.Sprintf("exdates[%d]", i), x, e.AllDay)
			switch {
			case msg != "":
				bad("%s", msg)
			case !s.occurs(t):
				bad("exdates[%d]: is not the start of an occurrence of the rule", i)
			case slices.ContainsFunc(d.exdates, t.Equal):
				bad("exdates[%d]: is given twice", i)
			default:
				d.exdates = append(d.exdates, t)
			}
		}
	}
	if r.Overrides != nil {
		if len(*r.Overrides) > maxOverrides {
			return fault.Validation(fmt.Sprintf("overrides: must be at most %d", maxOverrides))
		}
		for i, o := range *r.Overrides {
			f := fmt.Sprintf("overrides[%d]", i)
			occ, msg := parseTime(f+".occurrence", o.Occurrence, e.AllDay)
			if msg != "" {
				bad("%s", msg)
				continue
			}
			if !s.occurs(occ) {
				bad("%s.occurrence: is not the start of an occurrence of the rule", f)
				continue
			}
			if slices.ContainsFunc(d.overrides, func(x Override) bool { return x.Occurrence.Equal(occ) }) {
				bad("%s.occurrence: is overridden twice", f)
				continue
			}
			start, msg := parseTime(f+".starts_at", o.StartsAt, e.AllDay)
			if msg != "" {
				bad("%s", msg)
				continue
			}
			end := start.Add(e.EndsAt.Sub(e.StartsAt))
			if o.EndsAt != nil {
				if end, msg = parseTime(f+".ends_at", *o.EndsAt, e.AllDay); msg != "" {
					bad("%s", msg)
					continue
				}
			}
			switch {
			case end.Before(start):
				bad("%s.ends_at: must not be before starts_at", f)
				continue
			case start.Before(e.StartsAt):
				bad("%s.starts_at: must not be before the event's starts_at", f)
				continue
			case o.Title != nil && (strings.TrimSpace(*o.Title) == "" || utf8.RuneCountInString(*o.Title) > maxTitle):
				bad("%s.title: must be 1 to %d characters", f, maxTitle)
				continue
			case o.Description != nil && utf8.RuneCountInString(*o.Description) > maxDescription:
				bad("%s.description: must be at most %d characters", f, maxDescription)
				continue
			}
			d.overrides = append(d.overrides, Override{Occurrence: occ, StartsAt: start, EndsAt: end, Title: o.Title, Description: o.Description})
			if e.UntilAt != nil && end.After(*e.UntilAt) {
				u := end
				e.UntilAt = &u
			}
		}
	}
	if len(details) > 0 {
		return fault.Validation(details...)
	}
	return nil
}
