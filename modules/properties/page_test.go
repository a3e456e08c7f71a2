package properties_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

// statements counts the statements the app sends while on.
type statements struct {
	mu   sync.Mutex
	on   bool
	sent []string
}

func (s *statements) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.on {
		s.sent = append(s.sent, e.Query)
	}
	return ctx
}

func (s *statements) AfterQuery(context.Context, *bun.QueryEvent) {}

// during returns the statements res's request sent.
func (s *statements) during(send func() *testkit.Response) (*testkit.Response, []string) {
	s.mu.Lock()
	s.on, s.sent = true, nil
	s.mu.Unlock()
	res := send()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on = false
	return res, s.sent
}

type pageWithNext struct {
	propertyList
	Next *string `json:"next"`
}

// The list of properties reads the caller's role in the statement of its
// page on PostgreSQL (issue 26: one round trip, not two; SQLite, in the
// process, runs the lookup and the page apart), and answers every caller
// as the guard of any other route would.
func TestListReadsTheRoleInItsPageStatement(t *testing.T) {
	app := testkit.Start(t)
	hook := &statements{}
	app.DB.AddQueryHook(hook) //nolint:staticcheck // the app's modules hold this *bun.DB
	owner := accountstest.NewUser(t, app)
	viewer := accountstest.NewUser(t, app)
	stranger := accountstest.NewUser(t, app)
	for _, name := range []string{"A", "B", "C"} {
		app.Post("/api/v1/properties", owner.Token, map[string]any{"name": name, "country_code": "DE"}).Expect(http.StatusCreated)
	}
	// Each user's first request makes their own workspace and loads them
	// into the accounts module's cache of token users: the statements
	// counted below are the list's alone.
	var profile struct {
		DefaultWorkspaceID int64 `json:"default_workspace_id"`
	}
	for _, u := range []accountstest.User{viewer, stranger, owner} {
		app.Get("/api/v1/user/profile", u.Token).Expect(http.StatusOK).JSON(&profile)
	}
	ws := profile.DefaultWorkspaceID
	now := time.Now().UTC()
	if _, err := database.Exec(context.Background(), app.DB, app.DB.NewRaw(
		`INSERT INTO workspace_members (workspace_id, user_id, role, is_default, created_at, updated_at) VALUES (?, ?, 'viewer', FALSE, ?, ?)`,
		database.Param{V: ws}, database.Param{V: viewer.ID}, now, now)); err != nil {
		t.Fatal(err)
	}
	list := func(token, workspace, query string) *testkit.Response {
		req := testkit.Request{Method: http.MethodGet, Path: "/api/v1/properties" + query, Token: token}
		if workspace != "" {
			req.Headers = map[string]string{auth.WorkspaceHeader: workspace}
		}
		return app.Do(req)
	}
	wsID := strconv.FormatInt(ws, 10)
	pg := app.Engine != "sqlite"

	// On PostgreSQL a page that is not full is one statement, the role and
	// the page, and tells its total without a count; a full page is counted
	// by a second one; an empty page (past the end, or of an empty list)
	// carries no membership, so a second statement reads the membership
	// beside the page, with the count. SQLite runs the guard's lookup and
	// then the page with its count.
	cases := []struct {
		token, workspace, query string
		total, rows             int
		next                    bool
		pg, sqlite              int
	}{
		{owner.Token, "", "", 3, 3, false, 1, 2},
		{owner.Token, wsID, "?per_page=2", 3, 2, true, 2, 2},
		{viewer.Token, wsID, "?page=9&per_page=2", 3, 0, false, 2, 3},
		{viewer.Token, wsID, "?page=2&per_page=2", 3, 1, false, 1, 2},
		{owner.Token, "", "?archived=true", 0, 0, false, 2, 2},
	}
	var first pageWithNext
	for _, c := range cases {
		res, sent := hook.during(func() *testkit.Response { return list(c.token, c.workspace, c.query) })
		var got pageWithNext
		res.Expect(http.StatusOK).JSON(&got)
		want := c.sqlite
		if pg {
			want = c.pg
		}
		if len(sent) != want {
			t.Errorf("%s %s: %d statements, want %d: %q", c.workspace, c.query, len(sent), want, sent)
		}
		if got.Total != c.total || len(got.Properties) != c.rows || (got.Next != nil) != c.next {
			t.Errorf("%s %s: %+v", c.workspace, c.query, got)
		}
		if c.next {
			first = got
		}
	}
	// The other lists on a Page route, empty here: two statements on
	// PostgreSQL, as the empty page above.
	for _, path := range []string{"/api/v1/contragents", "/api/v1/contracts"} {
		res, sent := hook.during(func() *testkit.Response {
			return app.Do(testkit.Request{Method: http.MethodGet, Path: path, Token: viewer.Token,
				Headers: map[string]string{auth.WorkspaceHeader: wsID}})
		})
		res.Expect(http.StatusOK)
		if len(sent) != 2 {
			t.Errorf("%s: %d statements, want 2: %q", path, len(sent), sent)
		}
		app.Do(testkit.Request{Method: http.MethodGet, Path: path, Token: stranger.Token,
			Headers: map[string]string{auth.WorkspaceHeader: wsID}}).Expect(http.StatusForbidden)
	}

	var rest pageWithNext
	res, sent := hook.during(func() *testkit.Response {
		return list(viewer.Token, wsID, "?per_page=2&after="+url.QueryEscape(*first.Next))
	})
	res.Expect(http.StatusOK).JSON(&rest)
	want := 2
	if pg {
		want = 1
	}
	if len(sent) != want || len(rest.Properties) != 1 || rest.Properties[0].Name != "C" || rest.Next != nil {
		t.Errorf("after the cursor: %+v in %d statements", rest, len(sent))
	}

	// The viewer's own workspace, the default without the header: empty.
	list(viewer.Token, "", "").Expect(http.StatusOK).JSON(&rest)
	if rest.Total != 0 || len(rest.Properties) != 0 {
		t.Errorf("the viewer's own workspace: %+v", rest)
	}

	// A user with no default membership acts in their first workspace by
	// id, the owner's here (made before the viewer's own).
	if _, err := database.Exec(context.Background(), app.DB, app.DB.NewRaw(
		`UPDATE workspace_members SET is_default = FALSE WHERE user_id = ?`, database.Param{V: viewer.ID})); err != nil {
		t.Fatal(err)
	}
	list(viewer.Token, "", "").Expect(http.StatusOK).JSON(&rest)
	if rest.Total != 3 || len(rest.Properties) != 3 {
		t.Errorf("no default membership: %+v", rest)
	}
	app.Get("/api/v1/properties/"+first.Properties[0].ID, viewer.Token).Expect(http.StatusOK)
	if _, err := database.Exec(context.Background(), app.DB, app.DB.NewRaw(
		`UPDATE workspace_members SET is_default = TRUE WHERE user_id = ? AND workspace_id <> ?`,
		database.Param{V: viewer.ID}, database.Param{V: ws})); err != nil {
		t.Fatal(err)
	}

	// Refusals are the guard's: a stranger, an unknown workspace, a bad
	// header.
	for _, c := range []struct {
		token, workspace string
		status           int
		code             string
	}{
		{stranger.Token, wsID, http.StatusForbidden, "not_a_member"},
		{owner.Token, "99999999", http.StatusForbidden, "not_a_member"},
		{owner.Token, "abc", http.StatusBadRequest, "validation_failed"},
		{"", wsID, http.StatusUnauthorized, ""},
	} {
		res := list(c.token, c.workspace, "").Expect(c.status)
		if c.code != "" && res.Map()["error"] != c.code {
			t.Errorf("%s: %s", c.workspace, res.String())
		}
	}

	// A removal counts on the next request.
	if _, err := database.Exec(context.Background(), app.DB, app.DB.NewRaw(
		`DELETE FROM workspace_members WHERE workspace_id = ? AND user_id = ?`,
		database.Param{V: ws}, database.Param{V: viewer.ID})); err != nil {
		t.Fatal(err)
	}
	if res := list(viewer.Token, wsID, "").Expect(http.StatusForbidden); res.Map()["error"] != "not_a_member" {
		t.Errorf("after the removal: %s", res.String())
	}

	// A user's first request of all, to the list, makes their own
	// workspace and answers its empty page.
	newcomer := accountstest.NewUser(t, app)
	list(newcomer.Token, "", "").Expect(http.StatusOK).JSON(&rest)
	app.Get("/api/v1/user/profile", newcomer.Token).Expect(http.StatusOK).JSON(&profile)
	if rest.Total != 0 || len(rest.Properties) != 0 || profile.DefaultWorkspaceID == 0 || profile.DefaultWorkspaceID == ws {
		t.Errorf("a newcomer's first list: %+v, workspace %d", rest, profile.DefaultWorkspaceID)
	}
}

// One property reads the caller's role in the property's statement on
// PostgreSQL, and answers every caller as the guard of any other route
// would: a stranger is refused before the record counts.
func TestGetReadsTheRoleInItsStatement(t *testing.T) {
	app := testkit.Start(t)
	hook := &statements{}
	app.DB.AddQueryHook(hook) //nolint:staticcheck // the app's modules hold this *bun.DB
	owner := accountstest.NewUser(t, app)
	stranger := accountstest.NewUser(t, app)
	var prop property
	app.Post("/api/v1/properties", owner.Token, map[string]any{"name": "A", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&prop)
	var other property
	app.Post("/api/v1/properties", stranger.Token, map[string]any{"name": "B", "country_code": "DE"}).Expect(http.StatusCreated).JSON(&other)
	var profile struct {
		DefaultWorkspaceID int64 `json:"default_workspace_id"`
	}
	app.Get("/api/v1/user/profile", owner.Token).Expect(http.StatusOK).JSON(&profile)
	wsID := strconv.FormatInt(profile.DefaultWorkspaceID, 10)
	get := func(token, workspace, id string) *testkit.Response {
		req := testkit.Request{Method: http.MethodGet, Path: "/api/v1/properties/" + id, Token: token}
		if workspace != "" {
			req.Headers = map[string]string{auth.WorkspaceHeader: workspace}
		}
		return app.Do(req)
	}
	want := 1
	if app.Engine == "sqlite" {
		want = 2
	}
	for _, workspace := range []string{"", wsID} {
		res, sent := hook.during(func() *testkit.Response { return get(owner.Token, workspace, prop.ID) })
		var got property
		res.Expect(http.StatusOK).JSON(&got)
		if got.ID != prop.ID || got.Name != "A" {
			t.Errorf("%q: %+v", workspace, got)
		}
		if len(sent) != want {
			t.Errorf("%q: %d statements, want %d: %q", workspace, len(sent), want, sent)
		}
	}
	for _, c := range []struct {
		token, workspace, id string
		status               int
		code                 string
	}{
		{owner.Token, "", other.ID, http.StatusForbidden, "forbidden"},
		{owner.Token, "", "01a21bfa-c7a9-70d7-96e5-0b92480632da", http.StatusNotFound, "not_found"},
		{owner.Token, "", "not-an-id", http.StatusNotFound, "not_found"},
		{stranger.Token, wsID, prop.ID, http.StatusForbidden, "not_a_member"},
		{stranger.Token, wsID, "01a21bfa-c7a9-70d7-96e5-0b92480632da", http.StatusForbidden, "not_a_member"},
		{stranger.Token, wsID, "not-an-id", http.StatusForbidden, "not_a_member"},
		{owner.Token, "99999999", prop.ID, http.StatusForbidden, "not_a_member"},
		{owner.Token, "abc", prop.ID, http.StatusBadRequest, "validation_failed"},
		{"", "", prop.ID, http.StatusUnauthorized, ""},
	} {
		res := get(c.token, c.workspace, c.id).Expect(c.status)
		if c.code != "" && res.Map()["error"] != c.code {
			t.Errorf("%s %s: %s", c.workspace, c.id, res.String())
		}
	}
}
