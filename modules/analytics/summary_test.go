package analytics_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type counts struct {
	Date      string `json:"date"`
	Events    int64  `json:"events"`
	Users     int64  `json:"users"`
	Anonymous int64  `json:"anonymous"`
}

type summary struct {
	From   string   `json:"from"`
	To     string   `json:"to"`
	Name   *string  `json:"name"`
	Days   []counts `json:"days"`
	Totals counts   `json:"totals"`
}

func TestSummaryCountsDaysAndUniqueUsers(t *testing.T) {
	app := testkit.Start(t, fast()...)
	admin := accountstest.NewUser(t, app, "ROLE_USER", "ROLE_ADMIN")
	ann := accountstest.NewUser(t, app)
	bob := accountstest.NewUser(t, app)
	at := func(ts string, name string) event { return event{"name": name, "timestamp": ts} }
	track := func(token, anon string, evs ...event) {
		t.Helper()
		for _, e := range evs {
			if anon != "" {
				e["anonymous_id"] = anon
			}
		}
		app.Post("/api/v1/analytics/track", token, map[string]any{"events": evs}).Expect(http.StatusAccepted)
	}
	// 2026-11-20: ann twice, bob once, anonymous x twice, anonymous y once.
	track(ann.Token, "", at("2026-11-20T01:00:00Z", "open"), at("2026-11-20T23:59:59Z", "open"))
	track(bob.Token, "dev-b", at("2026-11-20T12:00:00Z", "save"))
	track("", "x", at("2026-11-20T08:00:00Z", "open"), at("2026-11-20T09:00:00Z", "open"))
	track("", "y", at("2026-11-20T10:00:00Z", "open"))
	// 2026-11-22 (today): ann again, anonymous x again.
	track(ann.Token, "", at("2026-11-22T00:00:00Z", "save"))
	track("", "x", at("2026-11-22T09:00:00Z", "open"))
	// Before the window of 2026-11-20..22 (yesterday at +01:00 is still the 19th in UTC).
	track(bob.Token, "", at("2026-11-20T00:30:00+01:00", "open"))
	waitFor(t, app.DB, 9)

	var s summary
	app.Get("/api/v1/analytics/summary?from=2026-11-20&to=2026-11-22", admin.Token).Expect(http.StatusOK).JSON(&s)
	want := []counts{
		{Date: "2026-11-20", Events: 6, Users: 2, Anonymous: 2},
		{Date: "2026-11-21"},
		{Date: "2026-11-22", Events: 2, Users: 1, Anonymous: 1},
	}
	if s.From != "2026-11-20" || s.To != "2026-11-22" || s.Name != nil || len(s.Days) != 3 {
		t.Fatalf("summary %+v", s)
	}
	for i, d := range want {
		if s.Days[i] != d {
			t.Errorf("day %d: %+v, want %+v", i, s.Days[i], d)
		}
	}
	// Over the window each user and id counts once.
	if s.Totals != (counts{Events: 8, Users: 2, Anonymous: 2}) {
		t.Errorf("totals %+v, want 8 events, 2 users, 2 anonymous", s.Totals)
	}

	app.Get("/api/v1/analytics/summary?from=2026-11-19&to=2026-11-22&name=save", admin.Token).Expect(http.StatusOK).JSON(&s)
	if s.Name == nil || *s.Name != "save" || s.Days[1].Events != 1 || s.Days[3].Events != 1 || s.Totals != (counts{Events: 2, Users: 2}) {
		t.Errorf("summary of save: %+v", s)
	}
	// Default: the 30 days up to today.
	app.Get("/api/v1/analytics/summary", admin.Token).Expect(http.StatusOK).JSON(&s)
	if s.From != "2026-10-24" || s.To != "2026-11-22" || len(s.Days) != 30 || s.Totals.Events != 9 || s.Days[26] != (counts{Date: "2026-11-19", Events: 1, Users: 1}) {
		t.Errorf("default summary: from %s to %s, %d days, totals %+v", s.From, s.To, len(s.Days), s.Totals)
	}
	// An empty window: zeros.
	app.Get("/api/v1/analytics/summary?from=2026-01-01&to=2026-01-02", admin.Token).Expect(http.StatusOK).JSON(&s)
	if len(s.Days) != 2 || s.Totals != (counts{}) {
		t.Errorf("empty window: %+v", s)
	}
}

func TestSummaryIsForAdministrators(t *testing.T) {
	app := testkit.Start(t)
	user := accountstest.NewUser(t, app)
	admin := accountstest.NewUser(t, app, "ROLE_USER", "ROLE_ADMIN")
	app.Get("/api/v1/analytics/summary", "").Expect(http.StatusUnauthorized)
	app.Get("/api/v1/analytics/summary", user.Token).Expect(http.StatusForbidden)
	for _, q := range []string{"from=2026-11-23&to=2026-11-22", "from=2025-11-21&to=2026-11-22", "from=22.11.2026", "to=tomorrow",
		"name=" + strings.Repeat("n", 101)} {
		app.Get("/api/v1/analytics/summary?"+q, admin.Token).Expect(http.StatusBadRequest)
	}
	// 366 days is the longest window.
	app.Get("/api/v1/analytics/summary?from=2025-11-22&to=2026-11-22", admin.Token).Expect(http.StatusOK)
}
