package calendar_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/teambition/rrule-go"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/testkit/requires"
)

type feedToken struct {
	Token string `json:"token"`
	URL   string `json:"url"`
}

func (f fixture) rotate(t testing.TB) feedToken {
	t.Helper()
	var tok feedToken
	f.app.Post("/api/v1/calendar/feed-token", f.user.Token, nil).Expect(http.StatusCreated).JSON(&tok)
	if len(tok.Token) != 43 || tok.URL != "/api/v1/calendar/feed/"+tok.Token+".ics" {
		t.Fatalf("token %+v", tok)
	}
	return tok
}

func TestFeedTokenETagAndSequence(t *testing.T) {
	f := start(t)
	e := f.create(t, map[string]any{"title": "Viewing", "kind": "viewing", "starts_at": "2027-01-10T10:00:00Z", "ends_at": "2027-01-10T10:30:00Z"})
	tok := f.rotate(t)
	res := f.app.Get(tok.URL, "").Expect(http.StatusOK)
	etag := res.Header.Get("ETag")
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/calendar") || etag == "" || !strings.Contains(res.String(), "UID:"+e.ID+"@propman") ||
		!strings.Contains(res.String(), "SEQUENCE:0") {
		t.Fatalf("feed %v\n%s", res.Header, res.String())
	}
	f.app.Do(testkit.Request{Method: http.MethodGet, Path: tok.URL, Headers: map[string]string{"If-None-Match": etag}}).Expect(http.StatusNotModified)
	// A change raises SEQUENCE and the ETag.
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: base + "/" + e.ID, Token: f.user.Token, Body: map[string]any{"title": "Second viewing"}}).Expect(http.StatusOK)
	res = f.app.Do(testkit.Request{Method: http.MethodGet, Path: tok.URL, Headers: map[string]string{"If-None-Match": etag}}).Expect(http.StatusOK)
	if res.Header.Get("ETag") == etag || !strings.Contains(res.String(), "SEQUENCE:1") || !strings.Contains(res.String(), "SUMMARY:Second viewing") {
		t.Fatalf("changed feed %v\n%s", res.Header, res.String())
	}
	// Rotation: the old token is dead at once.
	tok2 := f.rotate(t)
	f.app.Get(tok.URL, "").Expect(http.StatusNotFound)
	f.app.Get(tok2.URL, "").Expect(http.StatusOK)
	f.app.Get("/api/v1/calendar/feed/"+strings.Repeat("A", 43)+".ics", "").Expect(http.StatusNotFound)
	f.app.Get("/api/v1/calendar/feed/short.ics", "").Expect(http.StatusNotFound)
	// Only the hash is stored.
	var hashes []string
	if err := f.app.DB.NewSelect().Table("calendar_feed_tokens").Column("token_hash").Scan(t.Context(), &hashes); err != nil {
		t.Fatal(err)
	}
	if len(hashes) != 1 || strings.Contains(hashes[0], tok2.Token) || len(hashes[0]) != 64 {
		t.Fatalf("stored %v", hashes)
	}
	// Another member has a feed of their own, of their workspace.
	other := accountstest.NewUser(t, f.app)
	tok3 := (fixture{app: f.app, user: other}).rotate(t)
	if body := f.app.Get(tok3.URL, "").Expect(http.StatusOK).String(); strings.Contains(body, e.ID) {
		t.Fatalf("another workspace's feed holds the event")
	}
}

// The feed's derived events reach from 31 days before today (2026-11-22,
// the test clock) to 335 after; the API's longest window is 366 days.
const (
	feedFrom = "2026-10-22"
	feedTo   = "2027-10-22"
)

// TestFeedMatchesWindow reads the feed with two independent iCalendar
// readers, golang-ical (expanded with rrule-go) and Python's icalendar
// with recurring_ical_events, and compares every occurrence of a year with
// the API's window, across the daylight-saving changes of Berlin and New
// York.
func TestFeedMatchesWindow(t *testing.T) {
	f := start(t)
	var p2 struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/properties", f.user.Token, map[string]any{"name": "Loft", "country_code": "FR"}).Expect(http.StatusCreated).JSON(&p2)
	f.contract(t, "C-1", term("MONTHLY_RENT_AMOUNT", 950), term("CONTRACT_START_DATE", "2026-12-01"), term("PAYMENT_DAY_OF_MONTH", 3))
	g := f
	g.property = p2.ID
	c2 := g.contract(t, "C-2", term("MONTHLY_RENT_AMOUNT", 700), term("CONTRACT_START_DATE", "2027-02-01"),
		term("CONTRACT_END_DATE", "2027-05-31"), term("PAYMENT_DAY_OF_MONTH", 10), term("DEPOSIT_AMOUNT", 1400))
	f.app.Post("/api/v1/contracts/"+c2+"/rent", f.user.Token, map[string]any{"amount": 720, "from": "2027-04-01", "index": map[string]any{"old_period": "2025-Q2", "old_value": "140.00", "new_period": "2026-Q2", "new_value": "145.00"}}).Expect(http.StatusOK)
	f.create(t, map[string]any{"title": "Sunday viewing", "kind": "viewing", "time_zone": "Europe/Berlin",
		"starts_at": "2027-03-14T10:00:00+01:00", "ends_at": "2027-03-14T10:30:00+01:00", "rrule": "FREQ=WEEKLY;COUNT=8",
		"exdates":   []string{"2027-03-21T10:00:00+01:00"},
		"overrides": []map[string]any{{"occurrence": "2027-04-04T10:00:00+02:00", "starts_at": "2027-04-04T15:00:00+02:00", "title": "Moved viewing"}}})
	f.create(t, map[string]any{"title": "Call", "kind": "meeting", "time_zone": "America/New_York",
		"starts_at": "2027-03-10T09:00:00-05:00", "ends_at": "2027-03-10T09:15:00-05:00", "rrule": "FREQ=DAILY;UNTIL=20270317T235959Z"})
	f.create(t, map[string]any{"title": "Autumn call", "kind": "meeting", "time_zone": "America/New_York",
		"starts_at": "2026-10-26T08:00:00-04:00", "ends_at": "2026-10-26T09:00:00-04:00", "rrule": "FREQ=WEEKLY;BYDAY=MO,TH"})
	f.create(t, map[string]any{"title": "Meter reading", "kind": "inspection", "all_day": true, "starts_at": "2026-11-30",
		"rrule": "FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20270831", "exdates": []string{"2027-02-28"}})
	f.create(t, map[string]any{"title": "Roof repair", "kind": "repair", "all_day": true, "starts_at": "2027-07-01", "ends_at": "2027-07-03", "time_zone": "Europe/Berlin"})
	f.create(t, map[string]any{"title": "Owners meeting", "kind": "meeting", "starts_at": "2027-10-31T18:00:00+01:00", "ends_at": "2027-10-31T20:00:00+01:00", "time_zone": "Europe/Berlin"})

	api := map[string]bool{}
	for _, o := range f.window(t, "from="+feedFrom+"&to="+feedTo) {
		uid := o.ID
		if o.EventID != nil {
			uid = *o.EventID
		}
		api[key(t, uid+"@propman", o.StartsAt, o.AllDay, o.Title)] = true
	}
	if len(api) < 60 {
		t.Fatalf("only %d occurrences in the API's year", len(api))
	}
	body := f.app.Get(f.rotate(t).URL, "").Expect(http.StatusOK).Body

	goKeys := expandWithGo(t, body)
	compare(t, "golang-ical", api, goKeys)
	// Python's reader is the second opinion; without it (outside CI) the
	// Go reader above has checked the feed.
	t.Run("python", func(t *testing.T) {
		py := requires.Python(t, "apt-get install python3-icalendar python3-recurring-ical-events", "icalendar", "recurring_ical_events")
		compare(t, "python icalendar", api, expandWithPython(t, py, body))
		// Under names no zone database knows, Python can only read the local
		// times through the feed's own VTIMEZONE components.
		renamed := bytes.ReplaceAll(bytes.ReplaceAll(body, []byte("Europe/Berlin"), []byte("X-Propman-Berlin")),
			[]byte("America/New_York"), []byte("X-Propman-New-York"))
		compare(t, "python icalendar with the feed's VTIMEZONE", api, expandWithPython(t, py, renamed))
	})
}

// key is an occurrence as both sides can write it: UID, start (UTC, or a
// date), title.
func key(t testing.TB, uid, start string, allDay bool, title string) string {
	t.Helper()
	if allDay {
		return uid + "|" + strings.ReplaceAll(start, "-", "") + "|" + title
	}
	ts, err := time.Parse(time.RFC3339, start)
	if err != nil {
		t.Fatalf("start %q: %v", start, err)
	}
	return uid + "|" + ts.UTC().Format("20060102T150405Z") + "|" + title
}

// inYear keeps what starts on a day of the API's window (by the UTC date).
func inYear(k string) bool {
	parts := strings.Split(k, "|")
	d := parts[1][:8]
	return d >= strings.ReplaceAll(feedFrom, "-", "") && d <= strings.ReplaceAll(feedTo, "-", "")
}

func compare(t *testing.T, reader string, api, feed map[string]bool) {
	t.Helper()
	var missing, extra []string
	for k := range api {
		if !feed[k] {
			missing = append(missing, k)
		}
	}
	for k := range feed {
		if !api[k] && inYear(k) {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Fatalf("%s: the feed differs from the API\nonly in the API (%d): %v\nonly in the feed (%d): %v", reader,
			len(missing), missing[:min(len(missing), 8)], len(extra), extra[:min(len(extra), 8)])
	}
}

// stampOf reads a DTSTART-like property: a date, a UTC time or a local
// time with TZID.
func stampOf(t testing.TB, p *ics.IANAProperty) (time.Time, bool) {
	t.Helper()
	if v := p.ICalParameters["VALUE"]; len(v) == 1 && v[0] == "DATE" {
		d, err := time.Parse("20060102", p.Value)
		if err != nil {
			t.Fatalf("date %q: %v", p.Value, err)
		}
		return d, true
	}
	if strings.HasSuffix(p.Value, "Z") {
		ts, err := time.Parse("20060102T150405Z", p.Value)
		if err != nil {
			t.Fatalf("time %q: %v", p.Value, err)
		}
		return ts, false
	}
	tz := p.ICalParameters["TZID"]
	if len(tz) != 1 {
		t.Fatalf("floating time %q", p.Value)
	}
	loc, err := time.LoadLocation(tz[0])
	if err != nil {
		t.Fatal(err)
	}
	ts, err := time.ParseInLocation("20060102T150405", p.Value, loc)
	if err != nil {
		t.Fatalf("time %q: %v", p.Value, err)
	}
	return ts, false
}

func stampKey(ts time.Time, allDay bool) string {
	if allDay {
		return ts.Format("20060102")
	}
	return ts.UTC().Format("20060102T150405Z")
}

func expandWithGo(t *testing.T, body []byte) map[string]bool {
	t.Helper()
	cal, err := ics.ParseCalendar(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("golang-ical: %v", err)
	}
	zones := map[string]bool{}
	for _, z := range cal.Timezones() {
		zones[z.GetProperty(ics.ComponentPropertyTzid).Value] = len(z.Components) > 0
	}
	if !zones["Europe/Berlin"] || !zones["America/New_York"] {
		t.Fatalf("VTIMEZONE missing: %v", zones)
	}
	from, _ := time.Parse(time.DateOnly, feedFrom)
	to, _ := time.Parse(time.DateOnly, feedTo)
	to = to.AddDate(0, 0, 1)
	moved := map[string]bool{} // uid|recurrence-id
	for _, ev := range cal.Events() {
		if r := ev.GetProperty(ics.ComponentPropertyRecurrenceId); r != nil {
			ts, allDay := stampOf(t, r)
			moved[ev.Id()+"|"+stampKey(ts, allDay)] = true
		}
	}
	out := map[string]bool{}
	uids := map[string]int{}
	for _, ev := range cal.Events() {
		uid := ev.Id()
		summary := ev.GetProperty(ics.ComponentPropertySummary).Value
		start, allDay := stampOf(t, ev.GetProperty(ics.ComponentPropertyDtStart))
		if ev.GetProperty(ics.ComponentPropertySequence) == nil || ev.GetProperty(ics.ComponentPropertyDtstamp) == nil {
			t.Fatalf("event %s without SEQUENCE or DTSTAMP", uid)
		}
		rr := ev.GetProperty(ics.ComponentPropertyRrule)
		if rr == nil {
			if ev.GetProperty(ics.ComponentPropertyRecurrenceId) == nil {
				uids[uid]++
			}
			out[uid+"|"+stampKey(start, allDay)+"|"+summary] = true
			continue
		}
		uids[uid]++
		ex := map[string]bool{}
		for _, p := range ev.GetProperties(ics.ComponentPropertyExdate) {
			ts, ad := stampOf(t, p)
			ex[stampKey(ts, ad)] = true
		}
		opt, err := rrule.StrToROption(rr.Value)
		if err != nil {
			t.Fatalf("RRULE %q: %v", rr.Value, err)
		}
		opt.Dtstart = start
		rule, err := rrule.NewRRule(*opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range rule.Between(from.AddDate(0, 0, -2), to, true) {
			k := stampKey(ts, allDay)
			if ex[k] || moved[uid+"|"+k] {
				continue
			}
			out[uid+"|"+k+"|"+summary] = true
		}
	}
	for uid, n := range uids {
		if n != 1 {
			t.Fatalf("UID %s on %d events", uid, n)
		}
	}
	return out
}

const pyExpand = `
import sys, json, datetime, icalendar, recurring_ical_events
cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
start = datetime.date.fromisoformat(sys.argv[2])
end = datetime.date.fromisoformat(sys.argv[3])
out = []
for ev in recurring_ical_events.of(cal).between(start, end):
    s = ev['DTSTART'].dt
    if isinstance(s, datetime.datetime):
        s = s.astimezone(datetime.timezone.utc).strftime('%Y%m%dT%H%M%SZ')
    else:
        s = s.strftime('%Y%m%d')
    out.append([str(ev['UID']), s, str(ev['SUMMARY'])])
print(json.dumps(out))
`

func expandWithPython(t *testing.T, py string, body []byte) map[string]bool {
	t.Helper()
	return expandWithPythonIn(t, py, body, feedFrom, feedTo)
}

// expandWithPythonIn expands the feed's occurrences from from to to
// (dates, to included) with Python's reader.
func expandWithPythonIn(t *testing.T, py string, body []byte, feedFrom, feedTo string) map[string]bool {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "feed.ics")
	if err := os.WriteFile(file, body, 0o600); err != nil {
		t.Fatal(err)
	}
	to, _ := time.Parse(time.DateOnly, feedTo)
	raw := requires.RunPython(t, py, pyExpand, file, feedFrom, to.AddDate(0, 0, 1).Format(time.DateOnly))
	var rows [][3]string
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatalf("python answer: %v\n%s", err, raw)
	}
	out := map[string]bool{}
	for _, r := range rows {
		out[r[0]+"|"+r[1]+"|"+r[2]] = true
	}
	return out
}

// An event planned years ahead and an open-ended series read the same
// local times in 2029 in a reader without the zone database: each
// VTIMEZONE carries the zone's yearly rule (an RRULE part) after the
// changes it writes out.
func TestFeedZonesCoverTheYearsAhead(t *testing.T) {
	f := start(t)
	f.create(t, map[string]any{"title": "Viewing in 2029", "kind": "viewing", "time_zone": "Europe/Berlin",
		"starts_at": "2029-07-10T10:00:00+02:00", "ends_at": "2029-07-10T10:30:00+02:00"})
	f.create(t, map[string]any{"title": "Winter viewing 2029", "kind": "viewing", "time_zone": "Europe/Berlin",
		"starts_at": "2029-12-04T10:00:00+01:00", "ends_at": "2029-12-04T10:30:00+01:00"})
	f.create(t, map[string]any{"title": "Standup", "kind": "meeting", "time_zone": "America/New_York",
		"starts_at": "2026-11-02T09:00:00-05:00", "ends_at": "2026-11-02T09:15:00-05:00", "rrule": "FREQ=WEEKLY;BYDAY=MO"})
	body := f.app.Get(f.rotate(t).URL, "").Expect(http.StatusOK).Body
	cal, err := ics.ParseCalendar(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for _, z := range cal.Timezones() {
		ruled := 0
		for _, c := range z.Components {
			if b, ok := c.(*ics.Daylight); ok && b.GetProperty(ics.ComponentPropertyRrule) != nil {
				ruled++
			}
			if b, ok := c.(*ics.Standard); ok && b.GetProperty(ics.ComponentPropertyRrule) != nil {
				ruled++
			}
		}
		if ruled != 2 {
			t.Errorf("VTIMEZONE %s has %d yearly rules, want 2 (summer and winter time)", z.GetProperty(ics.ComponentPropertyTzid).Value, ruled)
		}
	}
	for _, window := range [][2]string{{"2029-07-01", "2029-07-31"}, {"2029-11-20", "2029-12-31"}} {
		api := map[string]bool{}
		for _, o := range f.window(t, "from="+window[0]+"&to="+window[1]) {
			uid := o.ID
			if o.EventID != nil {
				uid = *o.EventID
			}
			api[key(t, uid+"@propman", o.StartsAt, o.AllDay, o.Title)] = true
		}
		if len(api) < 5 {
			t.Fatalf("%v: only %d occurrences", window, len(api))
		}
		t.Run("python "+window[0], func(t *testing.T) {
			py := requires.Python(t, "apt-get install python3-icalendar python3-recurring-ical-events", "icalendar", "recurring_ical_events")
			// Under names no zone database knows: only the VTIMEZONE tells
			// the offsets.
			renamed := bytes.ReplaceAll(bytes.ReplaceAll(body, []byte("Europe/Berlin"), []byte("X-Propman-Berlin")),
				[]byte("America/New_York"), []byte("X-Propman-New-York"))
			compare(t, "python icalendar in "+window[0], api, expandWithPythonIn(t, py, renamed, window[0], window[1]))
		})
	}
}

// The feed reads as a calendar app shows it: named after the workspace,
// each event of a property with the property's address as LOCATION (the
// dates derived from a contract too), and an event's reminders as
// VALARMs.
func TestFeedLocationAlarmsAndName(t *testing.T) {
	f := start(t)
	var ws struct {
		Workspaces []struct {
			ID int64 `json:"id"`
		} `json:"workspaces"`
	}
	f.app.Get("/api/v1/workspaces", f.user.Token).Expect(http.StatusOK).JSON(&ws)
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: fmt.Sprintf("/api/v1/workspaces/%d", ws.Workspaces[0].ID), Token: f.user.Token,
		Body: map[string]any{"name": "Hausverwaltung Lindenhof"}}).Expect(http.StatusOK)
	var p struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/properties", f.user.Token, map[string]any{"name": "Wohnung 3", "address": "Lindenstraße 5",
		"postal_code": "10969", "city": "Berlin", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&p)
	g := f
	g.property = p.ID
	g.contract(t, "L-1", term("MONTHLY_RENT_AMOUNT", 950), term("CONTRACT_START_DATE", "2026-12-01"), term("PAYMENT_DAY_OF_MONTH", 3))
	e := f.create(t, map[string]any{"title": "Viewing", "kind": "viewing", "property_id": p.ID, "reminders": []int{30, 1440},
		"starts_at": "2027-01-10T10:00:00Z", "ends_at": "2027-01-10T10:30:00Z"})
	body := f.app.Get(f.rotate(t).URL, "").Expect(http.StatusOK).Body
	cal, err := ics.ParseCalendar(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	name := ""
	for _, p := range cal.CalendarProperties {
		if p.IANAToken == "X-WR-CALNAME" {
			name = p.Value
		}
	}
	if name != "Hausverwaltung Lindenhof" {
		t.Errorf("the calendar is named %q", name)
	}
	const where = "Wohnung 3, Lindenstraße 5, 10969 Berlin"
	rentDays := 0
	for _, ev := range cal.Events() {
		loc := ev.GetProperty(ics.ComponentPropertyLocation)
		switch {
		case ev.Id() == e.ID+"@propman":
			if loc == nil || loc.Value != where {
				t.Errorf("the viewing's LOCATION is %v", loc)
			}
			var triggers []string
			for _, a := range ev.Alarms() {
				triggers = append(triggers, a.GetProperty(ics.ComponentPropertyTrigger).Value+" "+a.GetProperty(ics.ComponentPropertyAction).Value)
			}
			if strings.Join(triggers, ",") != "-PT30M DISPLAY,-PT1440M DISPLAY" {
				t.Errorf("the viewing's alarms: %v", triggers)
			}
		case strings.HasPrefix(ev.Id(), "rent_due:"):
			rentDays++
			if loc == nil || loc.Value != where {
				t.Errorf("a rent day's LOCATION is %v", loc)
			}
		}
	}
	if rentDays == 0 {
		t.Error("no rent day in the feed")
	}
}

// The dates derived from contracts speak their reader's language (the
// member's profile): a German landlord reads German titles, dates and
// amounts, in the API and in the feed.
func TestDerivedEventsInTheReadersLanguage(t *testing.T) {
	f := start(t)
	f.app.Put("/api/v1/user/profile", f.user.Token, map[string]any{"locale": "de"}).Expect(http.StatusOK)
	c := f.contract(t, "L-7", term("MONTHLY_RENT_AMOUNT", 950), term("CONTRACT_START_DATE", "2026-12-01"),
		term("CONTRACT_END_DATE", "2027-05-31"), term("PAYMENT_DAY_OF_MONTH", 3), term("DEPOSIT_AMOUNT", 1900))
	f.app.Post("/api/v1/contracts/"+c+"/rent", f.user.Token, map[string]any{"amount": 990, "from": "2027-04-01", "index": map[string]any{"old_period": "2025-10", "old_value": "110.0", "new_period": "2026-10", "new_value": "120.0"}}).Expect(http.StatusOK)
	titles := map[string]string{}
	for _, w := range []string{"from=2026-11-22&to=2027-11-21", "from=2027-06-01&to=2027-12-31"} {
		for _, o := range f.window(t, w) {
			titles[o.Title] = o.Kind
		}
	}
	for _, want := range []string{"Vertrag L-7 beginnt", "Vertrag L-7 endet", "Miete fällig, Vertrag L-7",
		"Mietänderung, Vertrag L-7", "Frist für die Kautionsabrechnung, Vertrag L-7"} {
		if titles[want] == "" {
			t.Errorf("no derived event %q in %v", want, titles)
		}
	}
	body := f.app.Get(f.rotate(t).URL, "").Expect(http.StatusOK).String()
	unfolded := strings.ReplaceAll(body, "\r\n ", "")
	for _, want := range []string{"SUMMARY:Miete fällig\\, Vertrag L-7", "DESCRIPTION:Neue Miete 990\\,00\u00a0€ ab 01.04.2027"} {
		if !strings.Contains(unfolded, want) {
			t.Errorf("the feed lacks %q", want)
		}
	}
	for _, english := range []string{"Rent due", "Rent change", "New rent", "starts", "ends"} {
		if strings.Contains(unfolded, "SUMMARY:"+english) || strings.Contains(unfolded, english+",") {
			t.Errorf("the German feed says %q", english)
		}
	}
}
