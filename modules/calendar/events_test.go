package calendar_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

func TestStoredEventLifecycle(t *testing.T) {
	f := start(t)
	e := f.create(t, map[string]any{"title": "Heating check", "kind": "inspection", "description": "Boiler\nroom",
		"starts_at": "2027-03-07T10:00:00+01:00", "ends_at": "2027-03-07T11:00:00+01:00", "time_zone": "Europe/Berlin",
		"rrule": "RRULE:FREQ=WEEKLY;COUNT=4", "property_id": f.property, "attendees": []string{f.tenant}, "reminders": []int{60, 1440}})
	if e.RRule == nil || *e.RRule != "FREQ=WEEKLY;COUNT=4" || e.StartsAt != "2027-03-07T10:00:00+01:00" || e.Sequence != 0 ||
		len(e.Attendees) != 1 || len(e.Reminders) != 2 {
		t.Fatalf("created %+v", e)
	}
	var got event
	f.app.Get(base+"/"+e.ID, f.user.Token).Expect(http.StatusOK).JSON(&got)
	if got.ID != e.ID || got.Title != "Heating check" {
		t.Fatalf("got %+v", got)
	}
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: base + "/" + e.ID, Token: f.user.Token,
		Body: map[string]any{"title": "Heating check (boiler)", "exdates": []string{"2027-03-14T10:00:00+01:00"}}}).Expect(http.StatusOK).JSON(&got)
	if got.Sequence != 1 || got.Title != "Heating check (boiler)" || len(got.ExDates) != 1 || got.StartsAt != e.StartsAt {
		t.Fatalf("updated %+v", got)
	}
	occ := f.window(t, "from=2027-03-01&to=2027-04-30&kind=inspection")
	if len(occ) != 3 || occ[1].StartsAt != "2027-03-21T10:00:00+01:00" || occ[2].StartsAt != "2027-03-28T10:00:00+02:00" {
		t.Fatalf("window after exdate: %+v", occ)
	}
	// The list, paged by key.
	f.create(t, map[string]any{"title": "Viewing", "kind": "viewing", "starts_at": "2027-01-05", "all_day": true})
	ids := f.app.Walk(base+"?property_id="+f.property, f.user.Token, "calendar_events", 1)
	if len(ids) != 1 || ids[0] != e.ID {
		t.Fatalf("list by property: %v", ids)
	}
	if all := f.app.Walk(base, f.user.Token, "calendar_events", 1); len(all) != 2 {
		t.Fatalf("list: %v", all)
	}
	// Another workspace sees nothing of it.
	other := accountstest.NewUser(t, f.app)
	f.app.Get(base+"/"+e.ID, other.Token).Expect(http.StatusNotFound)
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: base + "/" + e.ID, Token: other.Token, Body: map[string]any{"title": "x"}}).Expect(http.StatusNotFound)
	f.app.Delete(base+"/"+e.ID, other.Token).Expect(http.StatusNotFound)
	if occ := (fixture{app: f.app, user: other}).window(t, "from=2027-03-01&to=2027-04-30"); len(occ) != 0 {
		t.Fatalf("other workspace's window: %+v", occ)
	}
	// It stops recurring: its exceptions go with the rule.
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: base + "/" + e.ID, Token: f.user.Token,
		Body: map[string]any{"rrule": nil}}).Expect(http.StatusOK).JSON(&got)
	if got.RRule != nil || len(got.ExDates) != 0 || got.Sequence != 2 {
		t.Fatalf("no longer recurring: %+v", got)
	}
	if occ := f.window(t, "from=2027-03-01&to=2027-04-30&kind=inspection"); len(occ) != 1 || occ[0].ID != e.ID || occ[0].RecurrenceID != nil {
		t.Fatalf("single event's window: %+v", occ)
	}
	f.app.Delete(base+"/"+e.ID, f.user.Token).Expect(http.StatusNoContent)
	f.app.Get(base+"/"+e.ID, f.user.Token).Expect(http.StatusNotFound)
}

func TestBadInputStoresNothing(t *testing.T) {
	f := start(t)
	other := accountstest.NewUser(t, f.app)
	var foreign struct {
		ID string `json:"id"`
	}
	f.app.Post("/api/v1/contragents", other.Token, map[string]any{"kind": "person", "roles": []string{"tenant"}, "name": "Ben"}).
		Expect(http.StatusCreated).JSON(&foreign)
	valid := func(over map[string]any) map[string]any {
		b := map[string]any{"title": "Viewing", "kind": "viewing", "starts_at": "2027-03-07T10:00:00+01:00",
			"ends_at": "2027-03-07T11:00:00+01:00", "time_zone": "Europe/Berlin"}
		for k, v := range over {
			b[k] = v
		}
		return b
	}
	cases := []struct {
		name   string
		body   map[string]any
		status int
		want   string
	}{
		{"bad rrule", valid(map[string]any{"rrule": "FREQ=FORTNIGHTLY"}), 400, "rrule:"},
		{"rrule with dtstart", valid(map[string]any{"rrule": "DTSTART:20270101T000000Z\nRRULE:FREQ=DAILY"}), 400, "rrule:"},
		{"unknown zone", valid(map[string]any{"time_zone": "Mars/Olympus_Mons"}), 400, "time_zone:"},
		{"local zone", valid(map[string]any{"time_zone": "Local"}), 400, "time_zone:"},
		{"ends before starts", valid(map[string]any{"ends_at": "2027-03-07T09:00:00+01:00"}), 400, "ends_at: must not be before starts_at"},
		{"no end", valid(map[string]any{"ends_at": nil}), 400, "ends_at: is required"},
		{"bad kind", valid(map[string]any{"kind": "party"}), 400, "kind:"},
		{"no title", valid(map[string]any{"title": " "}), 400, "title:"},
		{"long title", valid(map[string]any{"title": strings.Repeat("a", 201)}), 400, "title:"},
		{"all-day with time", valid(map[string]any{"all_day": true}), 400, "starts_at: must be a date"},
		{"exdate off the rule", valid(map[string]any{"rrule": "FREQ=WEEKLY", "exdates": []string{"2027-03-08T10:00:00+01:00"}}), 400, "exdates[0]"},
		{"exdate without rule", valid(map[string]any{"exdates": []string{"2027-03-07T10:00:00+01:00"}}), 400, "exdates:"},
		{"foreign attendee", valid(map[string]any{"attendees": []string{foreign.ID}}), 400, "attendees[0]: no such contragent"},
		{"unknown property", valid(map[string]any{"property_id": "0190f3c4-0000-7000-8000-000000000000"}), 400, "property_id:"},
		{"too many reminders", valid(map[string]any{"reminders": []int{1, 2, 3, 4, 5, 6}}), 400, "reminders:"},
		{"secondly", valid(map[string]any{"rrule": "FREQ=SECONDLY"}), 422, "too_many_occurrences"},
		{"hourly", valid(map[string]any{"rrule": "FREQ=HOURLY"}), 422, "too_many_occurrences"},
		{"millions", valid(map[string]any{"rrule": "FREQ=DAILY;COUNT=3000000"}), 422, "too_many_occurrences"},
		{"minutely until", valid(map[string]any{"rrule": "FREQ=MINUTELY;UNTIL=20991231T000000Z"}), 422, "too_many_occurrences"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := f.app.Post(base, f.user.Token, c.body).Expect(c.status)
			if !strings.Contains(res.String(), c.want) {
				t.Fatalf("%s: %s", c.name, res.String())
			}
		})
	}
	if n := count(t, f.app, "calendar_events"); n != 0 {
		t.Fatalf("%d events stored by bad requests", n)
	}
	// A bad update changes nothing either.
	e := f.create(t, valid(nil))
	f.app.Do(testkit.Request{Method: http.MethodPatch, Path: base + "/" + e.ID, Token: f.user.Token,
		Body: map[string]any{"title": "New", "rrule": "FREQ=SECONDLY"}}).Expect(422)
	var got event
	f.app.Get(base+"/"+e.ID, f.user.Token).Expect(http.StatusOK).JSON(&got)
	if got.Title != "Viewing" || got.Sequence != 0 || got.RRule != nil {
		t.Fatalf("after a refused update: %+v", got)
	}
	// Windows.
	f.app.Get(base+"?from=2027-01-01&to=2028-01-02", f.user.Token).Expect(422)
	f.app.Get(base+"?from=2027-01-01&to=2028-01-01", f.user.Token).Expect(200)
	f.app.Get(base+"?from=2027-01-01&to=2027-12-31", f.user.Token).Expect(200)
	f.app.Get(base+"?from=2027-01-01", f.user.Token).Expect(400)
	f.app.Get(base+"?from=2027-02-01&to=2027-01-01", f.user.Token).Expect(400)
	f.app.Get(base+"?from=2027-01-01&to=2027-01-31&time_zone=Nowhere/Else", f.user.Token).Expect(400)
	f.app.Get(base+"?from=2027-01-01&to=2027-01-31&kind=party", f.user.Token).Expect(400)
}

func TestWindowAcrossDaylightSaving(t *testing.T) {
	f := start(t)
	// Berlin moves to summer time on 2027-03-28, New York on 2027-03-14.
	berlin := f.create(t, map[string]any{"title": "Sunday viewing", "kind": "viewing", "time_zone": "Europe/Berlin",
		"starts_at": "2027-03-14T10:00:00+01:00", "ends_at": "2027-03-14T10:30:00+01:00", "rrule": "FREQ=WEEKLY;COUNT=5",
		"exdates":   []string{"2027-03-21T10:00:00+01:00"},
		"overrides": []map[string]any{{"occurrence": "2027-04-04T10:00:00+02:00", "starts_at": "2027-04-04T15:00:00+02:00", "title": "Moved viewing"}}})
	ny := f.create(t, map[string]any{"title": "Call", "kind": "meeting", "time_zone": "America/New_York",
		"starts_at": "2027-03-12T09:00:00-05:00", "ends_at": "2027-03-12T09:15:00-05:00", "rrule": "FREQ=DAILY;UNTIL=20270316T235959Z"})
	occ := f.window(t, "from=2027-03-10&to=2027-04-30&kind=viewing,meeting")
	var got []string
	for _, o := range occ {
		got = append(got, o.Title+"@"+o.StartsAt)
	}
	want := []string{
		"Call@2027-03-12T09:00:00-05:00", "Call@2027-03-13T09:00:00-05:00", "Sunday viewing@2027-03-14T10:00:00+01:00",
		"Call@2027-03-14T09:00:00-04:00", "Call@2027-03-15T09:00:00-04:00", "Call@2027-03-16T09:00:00-04:00",
		"Sunday viewing@2027-03-28T10:00:00+02:00", "Moved viewing@2027-04-04T15:00:00+02:00", "Sunday viewing@2027-04-11T10:00:00+02:00",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("window\n got %v\nwant %v", got, want)
	}
	for _, o := range occ {
		if o.EventID == nil || (*o.EventID != berlin.ID && *o.EventID != ny.ID) || o.RecurrenceID == nil || !strings.HasPrefix(o.ID, *o.EventID+"/") {
			t.Fatalf("occurrence %+v", o)
		}
	}
	// Ids are stable from one read to the next and over other windows.
	again := f.window(t, "from=2027-04-01&to=2027-04-30&kind=viewing")
	if len(again) != 2 || again[0].ID != occ[7].ID || *again[0].RecurrenceID != "2027-04-04T10:00:00+02:00" {
		t.Fatalf("second read %+v", again)
	}
}

func TestDerivedEvents(t *testing.T) {
	f := start(t)
	c := f.contract(t, "C-1", term("MONTHLY_RENT_AMOUNT", 950), term("CONTRACT_START_DATE", "2027-01-01"),
		term("CONTRACT_END_DATE", "2027-06-30"), term("PAYMENT_DAY_OF_MONTH", 3), term("DEPOSIT_AMOUNT", 2850))
	f.app.Post("/api/v1/contracts/"+c+"/rent", f.user.Token, map[string]any{"amount": 990, "from": "2027-04-01", "index": map[string]any{"old_period": "2025-10", "old_value": "110.0", "new_period": "2026-10", "new_value": "120.0"}}).Expect(http.StatusOK)
	occ := f.window(t, "from=2027-01-01&to=2027-12-31")
	var got []string
	for _, o := range occ {
		if o.Source != "derived" || !o.AllDay || o.ContractID == nil || *o.ContractID != c || o.StartsAt != o.EndsAt {
			t.Fatalf("derived %+v", o)
		}
		got = append(got, o.Kind+"@"+o.StartsAt)
	}
	want := []string{"contract_start@2027-01-01", "rent_due@2027-01-03", "rent_due@2027-02-03", "rent_due@2027-03-03",
		"indexation@2027-04-01", "rent_due@2027-04-03", "rent_due@2027-05-03", "rent_due@2027-06-03",
		"contract_end@2027-06-30", "deposit_deadline@2027-12-30"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("derived\n got %v\nwant %v", got, want)
	}
	if occ[0].ID != "contract_start:"+c || occ[1].ID != "rent_due:"+c+":2027-01-03" {
		t.Fatalf("ids %s %s", occ[0].ID, occ[1].ID)
	}
	// Filters by kind and contract; a draft contract has no dates.
	if only := f.window(t, "from=2027-01-01&to=2027-12-31&kind=deposit_deadline&contract_id="+c); len(only) != 1 {
		t.Fatalf("deposit only: %+v", only)
	}
	if none := f.window(t, "from=2027-01-01&to=2027-12-31&kind=viewing"); len(none) != 0 {
		t.Fatalf("viewings: %+v", none)
	}
	// Another workspace's window has none of them.
	other := accountstest.NewUser(t, f.app)
	if occ := (fixture{app: f.app, user: other}).window(t, "from=2027-01-01&to=2027-12-31"); len(occ) != 0 {
		t.Fatalf("other workspace: %+v", occ)
	}
}

// TestConcurrentWrites runs more writers than the pool has connections:
// a query on the pool inside a transaction would deadlock here.
func TestConcurrentWrites(t *testing.T) {
	f := start(t, testkit.WithConfig("database.maxopen", 4))
	e := f.create(t, map[string]any{"title": "Repair", "kind": "repair", "starts_at": "2027-02-01", "all_day": true,
		"rrule": "FREQ=MONTHLY;COUNT=12", "property_id": f.property})
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i%2 == 0 {
				f.app.Post(base, f.user.Token, map[string]any{"title": fmt.Sprint("Meeting ", i), "kind": "meeting",
					"starts_at": "2027-02-01T10:00:00Z", "ends_at": "2027-02-01T11:00:00Z", "attendees": []string{f.tenant}}).Expect(http.StatusCreated)
				return
			}
			f.app.Do(testkit.Request{Method: http.MethodPatch, Path: base + "/" + e.ID, Token: f.user.Token,
				Body: map[string]any{"title": fmt.Sprint("Repair ", i)}}).Expect(http.StatusOK)
		}(i)
	}
	wg.Wait()
	var got event
	f.app.Get(base+"/"+e.ID, f.user.Token).Expect(http.StatusOK).JSON(&got)
	if got.Sequence != 6 {
		t.Fatalf("sequence %d after 6 updates", got.Sequence)
	}
	if n := count(t, f.app, "calendar_events"); n != 7 {
		t.Fatalf("%d events", n)
	}
}
