package opcosts_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type deadlineJSON struct {
	BuildingID string  `json:"building_id"`
	From       string  `json:"period_from"`
	To         string  `json:"period_to"`
	Status     string  `json:"status"`
	Deadline   *string `json:"deadline"`
	DaysLeft   *int    `json:"days_left"`
	Warning    bool    `json:"warning"`
	Overdue    int     `json:"overdue_periods"`
	Source     string  `json:"source"`
	DraftID    *string `json:"draft_statement_id"`
}

func deadlines(t *testing.T, w world) map[string]deadlineJSON {
	t.Helper()
	var page struct {
		Deadlines []deadlineJSON `json:"deadlines"`
	}
	w.app.Get("/api/v1/opcosts/deadlines", w.token).Expect(http.StatusOK).JSON(&page)
	out := map[string]deadlineJSON{}
	for _, d := range page.Deadlines {
		out[d.BuildingID] = d
	}
	return out
}

// The § 556 Abs. 3 BGB deadline of a building's latest ended period: on
// 2026-11-22 (the test clock) a building recorded now owes the statement
// of 2025 by 2026-12-31, 39 days away, so it is warned of; a draft of the
// period is named; once the statement is posted the warning goes, and the
// calendar no longer shows the date. A French building has no deadline.
func TestDeadlineWarningAndCalendar(t *testing.T) {
	t.Parallel()
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	w := world{app: app, token: u.Token}
	w.building = id(t, app.Post("/api/v1/buildings", w.token, map[string]any{"name": "Lindenstraße 5", "country_code": "DE"}).Expect(http.StatusCreated))
	// A token signed at the clock's time, which the test moves by years.
	at := func(when time.Time) {
		t.Helper()
		app.Clock.Set(when)
		token, err := app.Tokens.Issue(u.ID, 0, when)
		if err != nil {
			t.Fatal(err)
		}
		w.token = token
	}
	w.unit(t, "WE 1", 60)
	fr := id(t, w.app.Post("/api/v1/buildings", w.token, map[string]any{"name": "Rue Victor Hugo 3", "country_code": "FR"}).Expect(http.StatusCreated))

	got := deadlines(t, w)[w.building]
	if got.From != "2025-01-01" || got.To != "2025-12-31" || got.Status != "open" || got.Deadline == nil || *got.Deadline != "2026-12-31" ||
		*got.DaysLeft != 39 || !got.Warning || got.Overdue != 0 || got.Source != "§ 556 Abs. 3 BGB" || got.DraftID != nil {
		t.Fatalf("deadline: %+v", got)
	}
	if f := deadlines(t, w)[fr]; f.Status != "no_deadline" || f.Deadline != nil || f.DaysLeft != nil || f.Warning {
		t.Fatalf("French building: %+v", f)
	}
	calendar := func() string {
		return w.app.Get("/api/v1/calendar-events?from=2026-12-01&to=2026-12-31&kind=opcost_deadline", w.token).Expect(http.StatusOK).String()
	}
	has(t, "calendar", calendar(), `"id":"opcost_deadline:`+w.building+`:2025-12-31"`, `"kind":"opcost_deadline"`, `"starts_at":"2026-12-31"`,
		"Operating-cost statement due: Lindenstraße 5", "Period 2025-01-01 – 2025-12-31 (§ 556 Abs. 3 BGB)")

	st := id(t, w.app.Post(w.path("/opcost-statements"), w.token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated))
	if d := deadlines(t, w)[w.building]; d.DraftID == nil || *d.DraftID != st || !d.Warning {
		t.Fatalf("with a draft: %+v", d)
	}
	w.app.Post(w.path("/opcost-statements/"+st+"/post"), w.token, nil).Expect(http.StatusOK)
	if d := deadlines(t, w)[w.building]; d.Status != "posted" || d.Warning || d.To != "2025-12-31" || *d.DaysLeft != 39 {
		t.Fatalf("posted: %+v", d)
	}
	if c := calendar(); !strings.Contains(c, `"occurrences":[]`) {
		t.Errorf("calendar after posting: %s", c)
	}
	// The next period's deadline is in the calendar of 2027.
	has(t, "calendar 2027", w.app.Get("/api/v1/calendar-events?from=2027-12-01&to=2027-12-31&kind=opcost_deadline", w.token).Expect(http.StatusOK).String(),
		`"starts_at":"2027-12-31"`, "Period 2026-01-01 – 2026-12-31")

	// A year on, 2026 is open and its deadline near; another year on,
	// 2027 is the latest period and 2026 is overdue.
	at(time.Date(2027, 11, 1, 10, 0, 0, 0, time.UTC))
	if d := deadlines(t, w)[w.building]; d.From != "2026-01-01" || d.Status != "open" || *d.DaysLeft != 60 || !d.Warning {
		t.Fatalf("2027: %+v", d)
	}
	at(time.Date(2028, 2, 1, 10, 0, 0, 0, time.UTC))
	if d := deadlines(t, w)[w.building]; d.From != "2027-01-01" || *d.DaysLeft != 334 || d.Warning || d.Overdue != 1 {
		t.Fatalf("2028: %+v", d)
	}
	// A viewer of another workspace sees none of it.
	other := accountstest.NewUser(t, w.app).Token
	if got := w.app.Get("/api/v1/opcosts/deadlines", other).Expect(http.StatusOK).String(); got != `{"deadlines":[],"page":1,"per_page":50,"total":0,"next":null}` {
		has(t, "stranger's deadlines", got, `"deadlines":[]`)
	}
}

// A draft is deleted; a posted statement is not (409), nor is one of
// another building.
func TestDeleteDraft(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.unit(t, "WE 1", 60)
	st := id(t, w.app.Post(w.path("/opcost-statements"), w.token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated))
	w.app.Delete(w.path("/opcost-statements/"+st), w.token).Expect(http.StatusNoContent)
	w.app.Get(w.path("/opcost-statements/"+st), w.token).Expect(http.StatusNotFound)
	w.app.Delete(w.path("/opcost-statements/"+st), w.token).Expect(http.StatusNotFound)

	st = id(t, w.app.Post(w.path("/opcost-statements"), w.token, map[string]any{"period_from": "2025-01-01", "period_to": "2025-12-31"}).
		Expect(http.StatusCreated))
	w.app.Post(w.path("/opcost-statements/"+st+"/post"), w.token, nil).Expect(http.StatusOK)
	has(t, "deleting a posted statement", w.app.Delete(w.path("/opcost-statements/"+st), w.token).Expect(http.StatusConflict).String(), "already_posted")
	w.app.Get(w.path("/opcost-statements/"+st), w.token).Expect(http.StatusOK)
	other := id(t, w.app.Post("/api/v1/buildings", w.token, map[string]any{"name": "Hof", "country_code": "DE"}).Expect(http.StatusCreated))
	w.app.Delete("/api/v1/buildings/"+other+"/opcost-statements/"+st, w.token).Expect(http.StatusNotFound)
}
