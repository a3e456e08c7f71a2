package calendar

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	ics "github.com/arran4/golang-ical"
	"github.com/google/uuid"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/workspaces"
	"github.com/propman/propman/platform/period"
)

// uidDomain ends every UID of the feed (RFC 5545 3.8.4.7 suggests a
// domain to keep UIDs unique across producers).
const uidDomain = "@propman"

const (
	localFormat = "20060102T150405"
	dateFormat  = "20060102"
)

// Feed writes the workspace's iCalendar feed: every stored event (its rule,
// exceptions and overrides as RRULE, EXDATE and RECURRENCE-ID, so the
// calendar app expands them), and the derived events from FeedPast days
// before today to FeedAhead days after it.
func (s *Service) Feed(ctx context.Context, workspaceID int64, locale string) ([]byte, error) {
	today := period.DateOf(s.clock.Now())
	from, to := today.AddDays(-s.cfg.FeedPast), today.AddDays(s.cfg.FeedAhead)
	events, err := s.stored(ctx, s.db, workspaceID, from.Time().Add(-24*time.Hour), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), WindowQuery{})
	if err != nil {
		return nil, err
	}
	days, err := derived(ctx, s.db, s.opcosts, workspaceID, from, to, contracts.DatedFilter{}, nil, wordsOf(s.dicts, locale))
	if err != nil {
		return nil, err
	}
	// The calendar is named after the workspace, so a subscriber with
	// several tells them apart.
	name, err := workspaces.NameOf(ctx, s.db, workspaceID)
	if err != nil {
		return nil, err
	}
	if name = strings.TrimSpace(icalText(name)); name == "" {
		name = "propman"
	}
	cal := ics.NewCalendarFor("propman")
	cal.SetProductId("-//propman//calendar//EN")
	cal.SetMethod(ics.MethodPublish)
	cal.SetName(name)
	cal.SetXWRCalName(name)
	places, err := s.places(ctx, events, days)
	if err != nil {
		return nil, err
	}

	zones := map[string]int{} // zone -> earliest year used
	var vevents []*ics.VEvent
	for i := range events {
		sc, err := newSchedule(&events[i])
		if err != nil {
			return nil, err
		}
		if !sc.e.AllDay && sc.loc != time.UTC {
			y := sc.e.StartsAt.Year()
			if z, ok := zones[sc.e.TimeZone]; !ok || y < z {
				zones[sc.e.TimeZone] = y
			}
		}
		vevents = append(vevents, sc.vevents(places)...)
	}
	names := make([]string, 0, len(zones))
	for z := range zones {
		names = append(names, z)
	}
	sort.Strings(names)
	for _, z := range names {
		loc, _ := time.LoadLocation(z)
		cal.AddVTimezone(vtimezone(z, loc, min(zones[z], from.Year()), to.Year()+1))
	}
	for _, v := range vevents {
		cal.AddVEvent(v)
	}
	stamp := from.Time().UTC().Format("20060102T150405Z")
	dateParam := map[string][]string{string(ics.ParameterValue): {string(ics.ValueDataTypeDate)}}
	for i := range days {
		cal.AddVEvent(derivedVEvent(&days[i], stamp, dateParam, places))
	}
	var b bytes.Buffer
	b.Grow(400 * (len(vevents) + len(days) + 4))
	// RFC 5545 § 3.1: every content line, folds included, ends with CRLF.
	if err := cal.SerializeTo(&b, ics.WithNewLineWindows); err != nil {
		return nil, fmt.Errorf("calendar feed: %w", err)
	}
	return b.Bytes(), nil
}

// derivedVEvent is a derived event as an all-day VEVENT. Its properties
// are laid out directly (the library's setters look each one up first, a
// third of the feed's time with 12,000 events); the map of the date
// parameter is shared, as nothing changes it.
func derivedVEvent(d *Occurrence, stamp string, dateParam map[string][]string, places map[uuid.UUID]string) *ics.VEvent {
	prop := func(name ics.ComponentProperty, value string, params map[string][]string) ics.IANAProperty {
		return ics.IANAProperty{BaseProperty: ics.BaseProperty{IANAToken: string(name), Value: value, ICalParameters: params}}
	}
	v := &ics.VEvent{}
	v.Properties = make([]ics.IANAProperty, 0, 9)
	v.Properties = append(v.Properties,
		prop(ics.ComponentPropertyUniqueId, d.ID+uidDomain, nil),
		prop(ics.ComponentPropertyDtstamp, stamp, nil),
		prop(ics.ComponentPropertySequence, "0", nil),
		prop(ics.ComponentPropertySummary, icalText(d.Title), nil))
	if d.Description != "" {
		v.Properties = append(v.Properties, prop(ics.ComponentPropertyDescription, icalText(d.Description), nil))
	}
	if d.PropertyID != nil && places[*d.PropertyID] != "" {
		v.Properties = append(v.Properties, prop(ics.ComponentPropertyLocation, icalText(places[*d.PropertyID]), nil))
	}
	v.Properties = append(v.Properties,
		prop(ics.ComponentPropertyCategories, d.Kind, nil),
		prop(ics.ComponentPropertyDtStart, d.Start.Format(dateFormat), dateParam),
		prop(ics.ComponentPropertyDtEnd, d.End.AddDate(0, 0, 1).Format(dateFormat), dateParam),
		prop(ics.ComponentPropertyTransp, "TRANSPARENT", nil))
	return v
}

// places are the properties the events and days name, as LOCATION says
// them.
func (s *Service) places(ctx context.Context, events []Event, days []Occurrence) (map[uuid.UUID]string, error) {
	seen := map[uuid.UUID]bool{}
	var ids []uuid.UUID
	add := func(id *uuid.UUID) {
		if id != nil && !seen[*id] {
			seen[*id] = true
			ids = append(ids, *id)
		}
	}
	for i := range events {
		add(events[i].PropertyID)
	}
	for i := range days {
		add(days[i].PropertyID)
	}
	return properties.Places(ctx, s.db, ids)
}

// icalText prepares text for a TEXT value: the library escapes a line
// feed as \n but writes a carriage return or another control character
// as it is, and TEXT allows no control character but tab (RFC 5545 § 3.3.11):
// a bare CR breaks the CRLF lines. Every line break becomes \n and the
// other control characters (only rows older than the text rule hold
// them) are left out.
func icalText(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' }) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case unicode.IsControl(r) && r != '\t' && r != '\n':
			return -1
		}
		return r
	}, s)
}

// vevents are the components of one stored event: the master and one per
// overridden occurrence, all under the event's UID.
func (sc *schedule) vevents(places map[uuid.UUID]string) []*ics.VEvent {
	e := sc.e
	uid := e.ID.String() + uidDomain
	where := ""
	if e.PropertyID != nil {
		where = places[*e.PropertyID]
	}
	var reminders []int
	_ = json.Unmarshal([]byte(e.Reminders), &reminders)
	master := sc.vevent(uid, e.StartsAt, e.EndsAt, e.Title, e.Description, where, reminders)
	if e.RRule != "" {
		master.AddRrule(sc.ruleText())
		for _, x := range sc.exdates {
			val, params := sc.stamp(x)
			master.AddExdate(val, params...)
		}
	}
	out := []*ics.VEvent{master}
	for _, o := range sc.overrides {
		title, desc := e.Title, e.Description
		if o.Title != nil {
			title = *o.Title
		}
		if o.Description != nil {
			desc = *o.Description
		}
		v := sc.vevent(uid, o.StartsAt, o.EndsAt, title, desc, where, reminders)
		val, params := sc.stamp(o.Occurrence)
		v.SetProperty(ics.ComponentPropertyRecurrenceId, val, params...)
		out = append(out, v)
	}
	return out
}

func (sc *schedule) vevent(uid string, start, end time.Time, title, desc, where string, reminders []int) *ics.VEvent {
	e := sc.e
	v := ics.NewEvent(uid)
	v.SetDtStampTime(e.UpdatedAt)
	v.SetModifiedAt(e.UpdatedAt)
	v.SetCreatedTime(e.CreatedAt)
	v.SetSequence(e.Sequence)
	v.SetSummary(icalText(title))
	if desc != "" {
		v.SetDescription(icalText(desc))
	}
	if where != "" {
		v.SetLocation(icalText(where))
	}
	v.AddCategory(e.Kind)
	// The event's reminders, as the subscriber's calendar rings them.
	for _, minutes := range reminders {
		a := v.AddAlarm()
		a.SetAction(ics.ActionDisplay)
		a.SetTrigger(fmt.Sprintf("-PT%dM", minutes))
		a.SetProperty(ics.ComponentPropertyDescription, icalText(title))
	}
	if e.AllDay {
		v.SetAllDayStartAt(start)
		v.SetAllDayEndAt(end.AddDate(0, 0, 1))
		return v
	}
	val, params := sc.stamp(start)
	v.SetProperty(ics.ComponentPropertyDtStart, val, params...)
	val, params = sc.stamp(end)
	v.SetProperty(ics.ComponentPropertyDtEnd, val, params...)
	return v
}

// stamp is t as a DTSTART-like value of the event: a date, a UTC time, or
// a local time with its TZID.
func (sc *schedule) stamp(t time.Time) (string, []ics.PropertyParameter) {
	switch {
	case sc.e.AllDay:
		return t.UTC().Format(dateFormat), []ics.PropertyParameter{ics.WithValue(string(ics.ValueDataTypeDate))}
	case sc.loc == time.UTC:
		return t.UTC().Format(localFormat) + "Z", nil
	default:
		return t.In(sc.loc).Format(localFormat), []ics.PropertyParameter{ics.WithTZID(sc.e.TimeZone)}
	}
}

// ruleText is the stored rule with UNTIL as RFC 5545 wants it beside the
// event's DTSTART: a date for an all-day event, UTC otherwise.
func (sc *schedule) ruleText() string {
	if sc.rule == nil {
		return sc.e.RRule
	}
	opt := sc.rule.OrigOptions
	opt.Dtstart = time.Time{}
	text := opt.RRuleString()
	if sc.e.AllDay && !opt.Until.IsZero() {
		full := "UNTIL=" + opt.Until.UTC().Format(localFormat) + "Z"
		text = replaceOnce(text, full, "UNTIL="+opt.Until.UTC().Format(dateFormat))
	}
	return text
}

func replaceOnce(s, old, repl string) string {
	i := bytes.Index([]byte(s), []byte(old))
	if i < 0 {
		return s
	}
	return s[:i] + repl + s[i+len(old):]
}

// vtimezone describes loc as RFC 5545 wants, for every date a reader may
// ask of it: one STANDARD or DAYLIGHT part per offset change the zone
// database knows from fromYear to toYear (or one part when it has none),
// and after toYear the zone's yearly rule as parts with an RRULE, so an
// occurrence of an open-ended series in 2029, or an event planned years
// ahead, reads the same local time in a reader without the zone database.
// A zone whose changes follow no yearly rule gets its changes written out
// for twenty years more instead.
func vtimezone(name string, loc *time.Location, fromYear, toYear int) *ics.VTimezone {
	tz := ics.NewTimezone(name)
	start := time.Date(fromYear, 1, 1, 0, 0, 0, 0, loc)
	_, off := start.Zone()
	part := func(at time.Time, from, to int, dst bool, abbr, rule string) {
		var c ics.Component
		var base *ics.ComponentBase
		if dst {
			d := &ics.Daylight{}
			c, base = d, &d.ComponentBase
		} else {
			st := &ics.Standard{}
			c, base = st, &st.ComponentBase
		}
		base.SetProperty(ics.ComponentPropertyDtStart, at.Add(time.Duration(from)*time.Second).UTC().Format(localFormat))
		if rule != "" {
			base.SetProperty(ics.ComponentPropertyRrule, rule)
		}
		base.SetProperty(ics.ComponentProperty(ics.PropertyTzoffsetfrom), offsetText(from))
		base.SetProperty(ics.ComponentProperty(ics.PropertyTzoffsetto), offsetText(to))
		base.SetProperty(ics.ComponentProperty(ics.PropertyTzname), abbr)
		tz.Components = append(tz.Components, c)
	}
	// The offset in force at the start, as a part of its own.
	abbr, _ := start.Zone()
	part(start.UTC(), off, off, start.IsDST(), abbr, "")
	rules, ok := yearlyRules(loc, toYear+1)
	last := toYear
	if !ok {
		last = toYear + 20
	}
	for _, c := range changes(loc, fromYear, last) {
		part(c.at, c.from, c.to, c.dst, c.abbr, "")
	}
	for _, r := range rules {
		part(r.at, r.from, r.to, r.dst, r.abbr, r.rule)
	}
	return tz
}

// change is one change of a zone's offset: at the instant at, from one
// offset to another (seconds east of UTC); rule, when set, repeats it
// every year.
type change struct {
	at        time.Time
	from, to  int
	dst       bool
	abbr      string
	rule      string
	month     time.Month
	weekday   time.Weekday
	nth       int
	localTime string
}

// changes are the offset changes of loc from fromYear to toYear.
func changes(loc *time.Location, fromYear, toYear int) []change {
	var out []change
	t := time.Date(fromYear, 1, 1, 0, 0, 0, 0, loc)
	end := time.Date(toYear+1, 1, 1, 0, 0, 0, 0, loc)
	_, off := t.Zone()
	for t.Before(end) {
		next := t.Add(24 * time.Hour)
		if _, o := next.Zone(); o != off {
			// Find the change to the second between t and next.
			lo, hi := t, next
			for hi.Sub(lo) > time.Second {
				mid := lo.Add(hi.Sub(lo) / 2)
				if _, mo := mid.Zone(); mo == off {
					lo = mid
				} else {
					hi = mid
				}
			}
			a, _ := hi.Zone()
			// The wall clock just before the change, in the old offset.
			wall := hi.UTC().Add(time.Duration(off) * time.Second)
			nth := (wall.Day()-1)/7 + 1
			if wall.Day()+7 > time.Date(wall.Year(), wall.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day() {
				nth = -1
			}
			out = append(out, change{at: hi.UTC(), from: off, to: o, dst: hi.IsDST(), abbr: a, month: wall.Month(),
				weekday: wall.Weekday(), nth: nth, localTime: wall.Format("150405")})
			off = o
		}
		t = next
	}
	return out
}

var icalDays = [...]string{"SU", "MO", "TU", "WE", "TH", "FR", "SA"}

// yearlyRules are loc's changes from year on as yearly rules (the n-th
// or last weekday of a month at a wall-clock time), when the changes of
// year and of the next three years all follow them; ok is false when
// they do not (a zone that changes its rules, or by a calendar of its own).
// A zone without changes needs no rule.
func yearlyRules(loc *time.Location, year int) ([]change, bool) {
	first := changes(loc, year, year)
	for y := year + 1; y <= year+3; y++ {
		next := changes(loc, y, y)
		if len(next) != len(first) {
			return nil, false
		}
		for i := range next {
			a, b := first[i], next[i]
			if a.month != b.month || a.weekday != b.weekday || a.nth != b.nth || a.localTime != b.localTime || a.from != b.from || a.to != b.to {
				return nil, false
			}
		}
	}
	for i := range first {
		first[i].rule = fmt.Sprintf("FREQ=YEARLY;BYMONTH=%d;BYDAY=%d%s", int(first[i].month), first[i].nth, icalDays[first[i].weekday])
	}
	return first, true
}

func offsetText(sec int) string {
	sign := "+"
	if sec < 0 {
		sign, sec = "-", -sec
	}
	return fmt.Sprintf("%s%02d%02d", sign, sec/3600, sec%3600/60)
}

// etagOf is a strong ETag of a feed's bytes.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}
