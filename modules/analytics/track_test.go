package analytics_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

type row struct {
	Name        string    `bun:"name"`
	OccurredAt  time.Time `bun:"occurred_at"`
	Day         string    `bun:"day"`
	UserID      *int64    `bun:"user_id"`
	WorkspaceID *int64    `bun:"workspace_id"`
	AnonymousID *string   `bun:"anonymous_id"`
	Properties  string    `bun:"properties"`
}

func rows(t *testing.T, app *testkit.App) []row {
	t.Helper()
	day := "day"
	if app.Engine == "postgres" {
		day = "to_char(day, 'YYYY-MM-DD') AS day"
	}
	var out []row
	q := app.DB.NewRaw("SELECT name, occurred_at, " + day + ", user_id, workspace_id, anonymous_id, properties FROM analytics_events ORDER BY id")
	if err := database.Query(context.Background(), app.DB, q, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTrackAnonymousAndSignedIn(t *testing.T) {
	app := testkit.Start(t, fast()...)
	u := accountstest.NewUser(t, app)

	var out struct{ Accepted int }
	app.Post("/api/v1/analytics/track", "", map[string]any{"events": []event{{
		"name": "signup_started", "anonymous_id": "anon-1", "timestamp": "2026-11-21T23:59:59.5+02:00",
		"properties": event{"plan": "free", "units": 3, "ratio": -1.5e3, "import": false, "note": nil},
	}}}).Expect(http.StatusAccepted).JSON(&out)
	if out.Accepted != 1 {
		t.Fatalf("accepted %d, want 1", out.Accepted)
	}
	app.Post("/api/v1/analytics/track", u.Token, map[string]any{"events": []event{
		{"name": "property_created"}, {"name": "property_created", "anonymous_id": "device-9"},
	}}).Expect(http.StatusAccepted).JSON(&out)
	waitFor(t, app.DB, 3)

	// The two requests' events are written by the buffer in batches whose
	// order the load decides: each row is found by what it holds.
	got := rows(t, app)
	if len(got) != 3 {
		t.Fatalf("%d events stored, want 3", len(got))
	}
	slices.SortStableFunc(got, func(a, b row) int {
		rank := func(r row) int {
			switch {
			case r.Name == "signup_started":
				return 0
			case r.AnonymousID == nil:
				return 1
			}
			return 2
		}
		return rank(a) - rank(b)
	})
	anon := got[0]
	if anon.Name != "signup_started" || anon.UserID != nil || anon.WorkspaceID != nil || anon.AnonymousID == nil || *anon.AnonymousID != "anon-1" {
		t.Errorf("anonymous event stored as %+v", anon)
	}
	// 23:59:59.5 at +02:00 is 21:59:59.5 UTC: the day is the UTC one.
	if want := time.Date(2026, 11, 21, 21, 59, 59, 5e8, time.UTC); !anon.OccurredAt.Equal(want) || anon.Day != "2026-11-21" {
		t.Errorf("occurred_at %v day %s, want %v 2026-11-21", anon.OccurredAt, anon.Day, want)
	}
	var props map[string]any
	if err := json.Unmarshal([]byte(anon.Properties), &props); err != nil {
		t.Fatal(err)
	}
	if props["plan"] != "free" || props["units"] != 3.0 || props["ratio"] != -1500.0 || props["import"] != false || len(props) != 5 {
		t.Errorf("properties stored as %s", anon.Properties)
	}
	signed := got[1]
	ws := workspaceOf(t, app, u.Token)
	if signed.UserID == nil || *signed.UserID != u.ID || signed.WorkspaceID == nil || *signed.WorkspaceID != ws {
		t.Errorf("signed-in event stored as %+v, want user %d workspace %d", signed, u.ID, ws)
	}
	// Without a timestamp: the time of receipt (the test clock).
	if !signed.OccurredAt.Equal(app.Clock.Now()) || signed.Day != "2026-11-22" {
		t.Errorf("occurred_at %v day %s, want the clock's %v", signed.OccurredAt, signed.Day, app.Clock.Now())
	}
	if got[2].AnonymousID == nil || *got[2].AnonymousID != "device-9" || got[2].UserID == nil {
		t.Errorf("signed-in event with an anonymous id stored as %+v", got[2])
	}
}

func workspaceOf(t *testing.T, app *testkit.App, token string) int64 {
	t.Helper()
	var p struct {
		DefaultWorkspaceID *int64 `json:"default_workspace_id"`
	}
	app.Get("/api/v1/user/profile", token).Expect(http.StatusOK).JSON(&p)
	if p.DefaultWorkspaceID == nil {
		t.Fatal("no default workspace")
	}
	return *p.DefaultWorkspaceID
}

func TestTrackTokens(t *testing.T) {
	app := testkit.Start(t, fast()...)
	u := accountstest.NewUser(t, app)
	other := accountstest.NewUser(t, app)
	body := map[string]any{"events": []event{{"name": "x"}}}
	// A token sent and not valid is refused, not counted as anonymous.
	for _, token := range []string{"not-a-token", u.Token + "x"} {
		app.Post("/api/v1/analytics/track", token, body).Expect(http.StatusUnauthorized)
	}
	// Another user's workspace.
	res := app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/analytics/track", Token: u.Token, Body: body,
		Headers: map[string]string{"X-Workspace-ID": itoa(workspaceOf(t, app, other.Token))}})
	res.Expect(http.StatusForbidden)
	// Its own workspace, named.
	app.Do(testkit.Request{Method: http.MethodPost, Path: "/api/v1/analytics/track", Token: u.Token, Body: body,
		Headers: map[string]string{"X-Workspace-ID": itoa(workspaceOf(t, app, u.Token))}}).Expect(http.StatusAccepted)
	waitFor(t, app.DB, 1)
}

func TestTrackRefusesBadEventsAndKeepsNothing(t *testing.T) {
	app := testkit.Start(t, fast()...)
	good := event{"name": "ok", "anonymous_id": "a"}
	with := func(change event) map[string]any {
		e := event{"name": "ok", "anonymous_id": "a"}
		for k, v := range change {
			if v == nil {
				delete(e, k)
				continue
			}
			e[k] = v
		}
		// A good event first: the request is refused whole.
		return map[string]any{"events": []event{good, e}}
	}
	manyProps := event{}
	for i := range 21 {
		manyProps["k"+itoa(int64(i))] = i
	}
	cases := []struct {
		name   string
		body   any
		status int
		detail string
	}{
		{"too many events", events(101, "a"), 422, "events: at most 100 events a request, got 101"},
		{"no events", map[string]any{"events": []event{}}, 422, "events: at least one event"},
		{"events missing", map[string]any{}, 422, "events: required"},
		{"too many properties", with(event{"properties": manyProps}), 422, "events[1].properties: at most 20 keys"},
		{"nested object", with(event{"properties": event{"a": event{"b": 1}}}), 422, "events[1].properties.a: must be a string, number, boolean or null"},
		{"nested list", with(event{"properties": event{"a": []int{1}}}), 422, "events[1].properties.a: must be a string"},
		{"long value", with(event{"properties": event{"a": strings.Repeat("v", 257)}}), 422, "events[1].properties.a: at most 256 characters"},
		{"long key", with(event{"properties": event{strings.Repeat("k", 65): 1}}), 422, "events[1].properties: keys must be 1 to 64 characters"},
		{"empty key", with(event{"properties": event{"": 1}}), 422, "events[1].properties: keys must be 1 to 64 characters"},
		{"huge number", with(event{"properties": map[string]json.RawMessage{"a": json.RawMessage("1e1000000")}}), 422, "events[1].properties.a: numbers must be finite"},
		{"long name", with(event{"name": strings.Repeat("n", 101)}), 422, "events[1].name: at most 100 characters"},
		{"blank name", with(event{"name": "  "}), 422, "events[1].name: required"},
		{"no name", with(event{"name": nil}), 422, "events[1].name: required"},
		{"long anonymous id", with(event{"anonymous_id": strings.Repeat("a", 101)}), 422, "events[1].anonymous_id: at most 100"},
		{"anonymous without id", with(event{"anonymous_id": nil}), 422, "events[1].anonymous_id: required without a bearer token"},
		{"bad timestamp", with(event{"timestamp": "yesterday"}), 422, "events[1].timestamp: must be an RFC 3339 time"},
		{"timestamp without zone", with(event{"timestamp": "2026-11-22T10:00:00"}), 422, "events[1].timestamp: must be an RFC 3339 time"},
		{"old timestamp", with(event{"timestamp": "2026-10-22T09:59:59Z"}), 422, "events[1].timestamp: must not be more than 30 days in the past"},
		{"future timestamp", with(event{"timestamp": "2026-11-22T10:10:01Z"}), 422, "events[1].timestamp: must not be more than 10 minutes in the future"},
		{"timestamp a number", with(event{"timestamp": 1}), 400, "events.timestamp: must be a string"},
		{"properties a list", with(event{"properties": []int{1}}), 422, "events[1].properties: must be an object"},
		{"properties a string", with(event{"properties": "a=1"}), 422, "events[1].properties: must be an object"},
		{"duplicate key", map[string]any{"events": []json.RawMessage{json.RawMessage(`{"name":"x","anonymous_id":"a","properties":{"k":1,"\u006b":2}}`)}}, 422, "events[0].properties.k: the key is given twice"},
		{"long escaped value", with(event{"properties": map[string]json.RawMessage{"a": json.RawMessage(`"` + strings.Repeat(`\u00e9`, 257) + `"`)}}), 422, "events[1].properties.a: at most 256 characters"},
		{"nested after spaces", map[string]any{"events": []json.RawMessage{json.RawMessage(`{"name":"x","anonymous_id":"a","properties": { "a" : 1 , "b" :  [ ] } }`)}}, 422, "events[0].properties.b: must be a string, number, boolean or null"},
		{"control character", with(event{"properties": event{"a": "x\u0000y"}}), 400, "control characters"},
		{"not JSON", []byte(`{"events": [`), 400, "body:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := app.Post("/api/v1/analytics/track", "", c.body).Expect(c.status)
			var e struct {
				Error   string   `json:"error"`
				Details []string `json:"details"`
			}
			res.JSON(&e)
			if e.Error != "validation_failed" || len(e.Details) == 0 || !strings.Contains(strings.Join(e.Details, "\n"), c.detail) {
				t.Errorf("%s: %s, want a detail with %q", c.name, res.Body, c.detail)
			}
		})
	}
	// Every rule broken at once is named at once, at most 50 lines.
	bad := make([]event, 100)
	for i := range bad {
		bad[i] = event{"name": "", "timestamp": "x"}
	}
	var e struct{ Details []string }
	app.Post("/api/v1/analytics/track", "", map[string]any{"events": bad}).Expect(422).JSON(&e)
	if len(e.Details) != 51 || e.Details[50] != "... and 250 more" {
		t.Errorf("details of 300 broken rules: %d lines, last %q", len(e.Details), e.Details[len(e.Details)-1])
	}

	// The edges that are allowed.
	ok := map[string]any{"events": []event{
		{"name": strings.Repeat("n", 100), "anonymous_id": strings.Repeat("a", 100), "timestamp": "2026-10-23T10:00:00Z",
			"properties": manyPropsOf(20, strings.Repeat("é", 256))},
		{"name": "edge", "anonymous_id": "a", "timestamp": "2026-11-22T10:10:00Z", "properties": event{strings.Repeat("k", 64): 1.5}},
	}}
	app.Post("/api/v1/analytics/track", "", ok).Expect(http.StatusAccepted)
	// Nothing of a refused request was written: only these two are.
	waitFor(t, app.DB, 2)
	time.Sleep(50 * time.Millisecond)
	waitFor(t, app.DB, 2)
}

func manyPropsOf(n int, v string) event {
	e := event{}
	for i := range n {
		e["key"+itoa(int64(i))] = v
	}
	return e
}

func TestFullBufferAnswers429(t *testing.T) {
	// Nothing is written before the stop: the buffer fills.
	app := testkit.Start(t, testkit.WithConfig("modules.analytics.buffer", 250), testkit.WithConfig("modules.analytics.flush", "1m"),
		testkit.WithConfig("modules.analytics.batch", 10000))
	app.Post("/api/v1/analytics/track", "", events(100, "a")).Expect(http.StatusAccepted)
	app.Post("/api/v1/analytics/track", "", events(100, "a")).Expect(http.StatusAccepted)
	// 50 more fit, 51 do not: a request is taken whole or not at all.
	res := app.Post("/api/v1/analytics/track", "", events(51, "a")).Expect(http.StatusTooManyRequests)
	if res.Header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", res.Header.Get("Retry-After"))
	}
	app.Post("/api/v1/analytics/track", "", events(50, "a")).Expect(http.StatusAccepted)
	app.Post("/api/v1/analytics/track", "", events(1, "a")).Expect(http.StatusTooManyRequests)
	if n := count(t, app.DB); n != 0 {
		t.Fatalf("%d events written before the flush interval or a full batch", n)
	}
}

func TestFullBufferInBytesAnswers429(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("modules.analytics.bufferbytes", 1<<20), testkit.WithConfig("modules.analytics.flush", "1m"),
		testkit.WithConfig("modules.analytics.batch", 10000))
	big := make([]event, 100)
	for i := range big {
		big[i] = event{"name": "big", "anonymous_id": "a", "properties": manyPropsOf(20, strings.Repeat("v", 256))}
	}
	// About 5.5 KB an event stored, 550 KB a request: the second does not fit 1 MiB.
	app.Post("/api/v1/analytics/track", "", map[string]any{"events": big}).Expect(http.StatusAccepted)
	app.Post("/api/v1/analytics/track", "", map[string]any{"events": big}).Expect(http.StatusTooManyRequests)
	app.Post("/api/v1/analytics/track", "", events(10, "a")).Expect(http.StatusAccepted)
}

// TestTrackWithMoreClientsThanConnections: signed-in tracking reads the
// user and the workspace on the pool while the writers hold connections
// for their batches; with 4 connections and 24 clients nothing may wait
// forever or fail.
func TestTrackWithMoreClientsThanConnections(t *testing.T) {
	app := testkit.Start(t, fast(testkit.WithConfig("database.maxopen", 4), testkit.WithConfig("modules.analytics.batch", 50))...)
	users := make([]accountstest.User, 24)
	for i := range users {
		users[i] = accountstest.NewUser(t, app)
	}
	var wg sync.WaitGroup
	for i, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				token := u.Token
				if i%3 == 0 {
					token = ""
				}
				app.Post("/api/v1/analytics/track", token, events(20, "a")).Expect(http.StatusAccepted)
			}
		}()
	}
	wg.Wait()
	waitFor(t, app.DB, 24*5*20)
}

func itoa(n int64) string { return strconvFormat(n) }
