package contragents_test

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/testkit"
)

// counter counts the statements the app sends while on.
type counter struct {
	mu sync.Mutex
	on bool
	n  int
}

func (s *counter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.on {
		s.n++
	}
	return ctx
}

func (s *counter) AfterQuery(context.Context, *bun.QueryEvent) {}

func (s *counter) during(send func()) int {
	s.mu.Lock()
	s.on, s.n = true, 0
	s.mu.Unlock()
	send()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on = false
	return s.n
}

// One contragent reads the caller's role in the contragent's statement on
// PostgreSQL (one statement; SQLite runs the guard's lookup first), and a
// stranger is refused by the guard's answer before the record counts.
func TestGetReadsTheRoleInItsStatement(t *testing.T) {
	app := testkit.Start(t)
	hook := &counter{}
	app.DB.AddQueryHook(hook) //nolint:staticcheck // the app's modules hold this *bun.DB
	owner := newUser(t, app)
	stranger := newUser(t, app)
	c := create(t, app, owner.Token, tenant("Anna"))
	var profile struct {
		DefaultWorkspaceID int64 `json:"default_workspace_id"`
	}
	app.Get("/api/v1/user/profile", owner.Token).Expect(http.StatusOK).JSON(&profile)
	app.Get("/api/v1/user/profile", stranger.Token).Expect(http.StatusOK)
	want := 1
	if app.Engine == "sqlite" {
		want = 2
	}
	var got contragent
	n := hook.during(func() { app.Get(base+"/"+c.ID, owner.Token).Expect(http.StatusOK).JSON(&got) })
	if got.ID != c.ID || got.Name != "Anna" || n != want {
		t.Errorf("%+v in %d statements, want %d", got, n, want)
	}
	ws := map[string]string{auth.WorkspaceHeader: strconv.FormatInt(profile.DefaultWorkspaceID, 10)}
	for _, id := range []string{c.ID, "01a21bfa-c7a9-70d7-96e5-0b92480632da", "not-an-id"} {
		res := app.Do(testkit.Request{Method: http.MethodGet, Path: base + "/" + id, Token: stranger.Token, Headers: ws}).Expect(http.StatusForbidden)
		if res.Map()["error"] != "not_a_member" {
			t.Errorf("%s: %s", id, res.String())
		}
	}
}
