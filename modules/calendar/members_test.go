package calendar_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

// A viewer of the workspace reads the calendar and has a feed of their
// own, which ends when they leave; writing needs a manager.
func TestMemberFeedEndsWithMembership(t *testing.T) {
	f := start(t)
	var list struct {
		Workspaces []struct {
			ID int64 `json:"id"`
		} `json:"workspaces"`
	}
	f.app.Get("/api/v1/workspaces", f.user.Token).Expect(http.StatusOK).JSON(&list)
	ws := list.Workspaces[0].ID
	viewer := accountstest.NewUser(t, f.app)
	now := f.app.Clock.Now().UTC()
	if _, err := database.Exec(context.Background(), f.app.DB, f.app.DB.NewRaw(
		`INSERT INTO workspace_members (workspace_id, user_id, role, is_default, created_at, updated_at) VALUES (?, ?, ?, FALSE, ?, ?)`,
		database.Param{V: ws}, database.Param{V: viewer.ID}, auth.Viewer.String(), now, now)); err != nil {
		t.Fatal(err)
	}
	in := func(method, path string, body any) *testkit.Response {
		return f.app.Do(testkit.Request{Method: method, Path: path, Token: viewer.Token, Body: body,
			Headers: map[string]string{auth.WorkspaceHeader: strconv.FormatInt(ws, 10)}})
	}
	e := f.create(t, map[string]any{"title": "Team viewing", "kind": "viewing", "starts_at": "2027-01-10T10:00:00Z", "ends_at": "2027-01-10T11:00:00Z"})
	in(http.MethodGet, base+"/"+e.ID, nil).Expect(http.StatusOK)
	in(http.MethodPost, base, map[string]any{"title": "Mine", "kind": "other", "starts_at": "2027-01-10", "all_day": true}).Expect(http.StatusForbidden)
	var tok feedToken
	in(http.MethodPost, "/api/v1/calendar/feed-token", nil).Expect(http.StatusCreated).JSON(&tok)
	if body := f.app.Get(tok.URL, "").Expect(http.StatusOK).String(); !strings.Contains(body, e.ID+"@propman") {
		t.Fatal("the member's feed lacks the workspace's event")
	}
	// The owner's own feed is another token.
	own := f.rotate(t)
	f.app.Do(testkit.Request{Method: http.MethodDelete, Path: fmt.Sprintf("/api/v1/workspaces/%d/members/%d", ws, viewer.ID), Token: f.user.Token}).
		Expect(http.StatusNoContent)
	f.app.Get(tok.URL, "").Expect(http.StatusNotFound)
	f.app.Get(own.URL, "").Expect(http.StatusOK)
	// Back in the workspace, the old address stays dead.
	f.app.Clock.Advance(time.Minute)
	later := f.app.Clock.Now().UTC()
	if _, err := database.Exec(context.Background(), f.app.DB, f.app.DB.NewRaw(
		`INSERT INTO workspace_members (workspace_id, user_id, role, is_default, created_at, updated_at) VALUES (?, ?, ?, FALSE, ?, ?)`,
		database.Param{V: ws}, database.Param{V: viewer.ID}, auth.Viewer.String(), later, later)); err != nil {
		t.Fatal(err)
	}
	f.app.Get(tok.URL, "").Expect(http.StatusNotFound)
}
