package calendar

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/teambition/rrule-go"

	"github.com/propman/propman/platform/fault"
)

// Occurrence is one event on one day or at one time: an occurrence of a
// stored event (its rule expanded) or a derived event.
type Occurrence struct {
	ID      string
	EventID *uuid.UUID
	Source  string
	Kind    string
	Title   string
	// Description is the event's text; derived events say what they are.
	Description string
	// Start and End are instants for a timed occurrence; for an all-day one
	// midnight UTC of its first and of its last day (inclusive).
	Start, End time.Time
	AllDay     bool
	// Loc is the zone a timed occurrence is shown in; nil for derived ones.
	Loc        *time.Location
	PropertyID *uuid.UUID
	ContractID *uuid.UUID
	// Recurrence is the start the rule gave the occurrence, nil when the
	// event happens once.
	Recurrence *time.Time
	Sequence   int
}

// The sources of an occurrence.
const (
	SourceEvent   = "event"
	SourceDerived = "derived"
)

func errTooMany(what string) error {
	return fault.New(fault.KindUnprocessable, "too_many_occurrences", what)
}

// parseRule parses an RFC 5545 RRULE value (with or without "RRULE:") for
// an event starting at dtstart (in the event's zone; midnight UTC when
// all-day): it returns the rule, its normal text and the start of its last
// occurrence (zero when it never ends). A rule with more than maxPerYear
// occurrences in its first 366 days, or more than maxTotal in all, is a 422.
func parseRule(text string, dtstart time.Time, allDay bool) (*rrule.RRule, string, time.Time, error) {
	text = strings.TrimSpace(text)
	if len(text) > 6 && strings.EqualFold(text[:6], "RRULE:") {
		text = text[6:]
	}
	upper := strings.ToUpper(text)
	switch {
	case text == "":
		return nil, "", time.Time{}, nil
	case len(text) > maxRRule:
		return nil, "", time.Time{}, fault.Validation(fmt.Sprintf("rrule: must be at most %d characters", maxRRule))
	case strings.ContainsAny(text, "\r\n:") || strings.Contains(upper, "DTSTART") || strings.Contains(upper, "BYEASTER"):
		return nil, "", time.Time{}, fault.Validation("rrule: must be one RFC 5545 RRULE value such as FREQ=WEEKLY;BYDAY=MO (no DTSTART; the event's starts_at is the start)")
	}
	opt, err := rrule.StrToROptionInLocation(text, dtstart.Location())
	if err != nil {
		return nil, "", time.Time{}, fault.Validation("rrule: " + err.Error())
	}
	if opt.Count < 0 || opt.Interval < 0 || opt.Interval > 1000 {
		return nil, "", time.Time{}, fault.Validation("rrule: COUNT must be positive and INTERVAL from 1 to 1000")
	}
	if allDay && !opt.Until.IsZero() {
		// A date's rule ends on a date (RFC 5545 3.3.10): the UNTIL day.
		u := opt.Until.In(time.UTC)
		opt.Until = time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	}
	opt.Dtstart = dtstart
	r, err := rrule.NewRRule(*opt)
	if err != nil {
		return nil, "", time.Time{}, fault.Validation("rrule: " + err.Error())
	}
	finite := opt.Count > 0 || !opt.Until.IsZero()
	yearEnd := dtstart.AddDate(0, 0, maxWindowDays)
	next := r.Iterator()
	var last time.Time
	n, inYear := 0, 0
	for {
		t, ok := next()
		if !ok {
			break
		}
		n++
		last = t
		if t.Before(yearEnd) {
			inYear++
			if inYear > maxPerYear {
				return nil, "", time.Time{}, errTooMany(fmt.Sprintf("The rule has more than %d occurrences in a year; a calendar event may have at most %d.", maxPerYear, maxPerYear))
			}
		} else if !finite {
			break
		}
		if n > maxTotal {
			return nil, "", time.Time{}, errTooMany(fmt.Sprintf("The rule has more than %d occurrences; give it a COUNT or UNTIL that ends it sooner.", maxTotal))
		}
	}
	if n == 0 {
		return nil, "", time.Time{}, fault.Validation("rrule: gives no occurrence at or after starts_at")
	}
	if !finite {
		last = time.Time{}
	}
	return r, opt.RRuleString(), last, nil
}

// schedule is a stored event with its lists decoded and its rule parsed,
// ready to be expanded.
type schedule struct {
	e         *Event
	loc       *time.Location
	rule      *rrule.RRule
	dur       time.Duration
	exdates   []time.Time
	excluded  map[int64]bool
	overrides []Override
	moved     map[int64]int
}

// dtstart is the start the rule counts from: the local start in the
// event's zone (so that 10:00 stays 10:00 across a daylight-saving
// change), or midnight UTC of the first day of an all-day event.
func dtstart(e *Event, loc *time.Location) time.Time {
	if e.AllDay {
		return e.StartsAt.UTC()
	}
	return e.StartsAt.In(loc)
}

func newSchedule(e *Event) (*schedule, error) {
	loc, err := time.LoadLocation(e.TimeZone)
	if err != nil {
		return nil, fmt.Errorf("event %s: zone %q: %w", e.ID, e.TimeZone, err)
	}
	s := &schedule{e: e, loc: loc, dur: e.EndsAt.Sub(e.StartsAt), excluded: map[int64]bool{}, moved: map[int64]int{}}
	if e.RRule != "" {
		opt, err := rrule.StrToROptionInLocation(e.RRule, time.UTC)
		if err != nil {
			return nil, fmt.Errorf("event %s: rule: %w", e.ID, err)
		}
		opt.Dtstart = dtstart(e, loc)
		if s.rule, err = rrule.NewRRule(*opt); err != nil {
			return nil, fmt.Errorf("event %s: rule: %w", e.ID, err)
		}
	}
	if err := json.Unmarshal([]byte(e.ExDates), &s.exdates); err != nil {
		return nil, fmt.Errorf("event %s: exdates: %w", e.ID, err)
	}
	for _, t := range s.exdates {
		s.excluded[t.Unix()] = true
	}
	if err := json.Unmarshal([]byte(e.Overrides), &s.overrides); err != nil {
		return nil, fmt.Errorf("event %s: overrides: %w", e.ID, err)
	}
	for i, o := range s.overrides {
		s.moved[o.Occurrence.Unix()] = i
	}
	return s, nil
}

// occurs reports whether the rule gives an occurrence starting at t.
func (s *schedule) occurs(t time.Time) bool {
	if s.rule == nil {
		return t.Equal(s.e.StartsAt)
	}
	got := s.rule.Between(t.Add(-time.Second), t.Add(time.Second), true)
	for _, g := range got {
		if g.Equal(t) {
			return true
		}
	}
	return false
}

// window is a span of days [from, to] seen in a zone: timed occurrences
// count when they overlap [start, end), all-day ones when their days meet
// [from, to].
type window struct {
	from, to   time.Time // midnight UTC of the first and last day
	start, end time.Time // instants
}

func newWindow(from, to time.Time, loc *time.Location) window {
	return window{
		from: from, to: to,
		start: time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, loc),
		end:   time.Date(to.Year(), to.Month(), to.Day()+1, 0, 0, 0, 0, loc),
	}
}

func (w window) meets(allDay bool, start, end time.Time) bool {
	if allDay {
		return !start.After(w.to) && !end.Before(w.from)
	}
	if start.Equal(end) {
		return !start.Before(w.start) && start.Before(w.end)
	}
	return start.Before(w.end) && end.After(w.start)
}

// errCapped is returned when a window holds more stored occurrences than
// one answer may.
var errCapped = errors.New("calendar: too many occurrences in the window")

// expand appends the occurrences of s that meet w to out; budget bounds
// how many it may append.
func (s *schedule) expand(w window, out []Occurrence, budget *int) ([]Occurrence, error) {
	e := s.e
	add := func(rec *time.Time, start, end time.Time, title, desc string) error {
		if *budget <= 0 {
			return errCapped
		}
		*budget--
		id := e.ID
		o := Occurrence{ID: e.ID.String(), EventID: &id, Source: SourceEvent, Kind: e.Kind, Title: title, Description: desc,
			Start: start, End: end, AllDay: e.AllDay, Loc: s.loc, PropertyID: e.PropertyID, ContractID: e.ContractID,
			Recurrence: rec, Sequence: e.Sequence}
		if rec != nil {
			o.ID = e.ID.String() + "/" + recurrenceKey(*rec, e.AllDay)
		}
		out = append(out, o)
		return nil
	}
	if s.rule == nil {
		if w.meets(e.AllDay, e.StartsAt, e.EndsAt) {
			return out, add(nil, e.StartsAt, e.EndsAt, e.Title, e.Description)
		}
		return out, nil
	}
	// The rule's starts that can meet the window: from a duration before it.
	after, before := w.start.Add(-s.dur), w.end
	if e.AllDay {
		after, before = w.from.Add(-s.dur), w.to
	}
	for _, t := range s.rule.Between(after, before, true) {
		key := t.Unix()
		if s.excluded[key] {
			continue
		}
		if _, ok := s.moved[key]; ok {
			continue
		}
		start := t.UTC()
		if !w.meets(e.AllDay, start, start.Add(s.dur)) {
			continue
		}
		rec := start
		if err := add(&rec, start, start.Add(s.dur), e.Title, e.Description); err != nil {
			return out, err
		}
	}
	for _, o := range s.overrides {
		if s.excluded[o.Occurrence.Unix()] || !w.meets(e.AllDay, o.StartsAt, o.EndsAt) {
			continue
		}
		title, desc := e.Title, e.Description
		if o.Title != nil {
			title = *o.Title
		}
		if o.Description != nil {
			desc = *o.Description
		}
		rec := o.Occurrence
		if err := add(&rec, o.StartsAt, o.EndsAt, title, desc); err != nil {
			return out, err
		}
	}
	return out, nil
}

// recurrenceKey is an occurrence's RECURRENCE-ID in UTC (a date when
// all-day), the stable part of its id.
func recurrenceKey(t time.Time, allDay bool) string {
	if allDay {
		return t.UTC().Format("20060102")
	}
	return t.UTC().Format("20060102T150405Z")
}

// sortOccurrences orders by start (an all-day one at midnight of its first
// day in loc), then id. The keys are made once: a window of a large
// portfolio sorts some 12,000 entries.
func sortOccurrences(list []Occurrence, loc *time.Location) {
	keys := make([]int64, len(list))
	idx := make([]int, len(list))
	for i := range list {
		o := &list[i]
		if o.AllDay {
			keys[i] = time.Date(o.Start.Year(), o.Start.Month(), o.Start.Day(), 0, 0, 0, 0, loc).Unix()
		} else {
			keys[i] = o.Start.Unix()
		}
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool {
		i, j := idx[a], idx[b]
		if keys[i] != keys[j] {
			return keys[i] < keys[j]
		}
		return list[i].ID < list[j].ID
	})
	sorted := make([]Occurrence, len(list))
	for k, i := range idx {
		sorted[k] = list[i]
	}
	copy(list, sorted)
}
