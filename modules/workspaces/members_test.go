package workspaces_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/testkit"
)

func count(t *testing.T, app *testkit.App, token string, path string, ws int64, key string) int {
	t.Helper()
	res := in(app, ws, http.MethodGet, path, token, nil).Expect(200)
	list, _ := res.Map()[key].([]any)
	return len(list)
}

// A user's own workspace is their default; a member of another acts there
// with X-Workspace-ID, and the records stay the workspace's.
func TestTeamWorksInOneWorkspace(t *testing.T) {
	app := testkit.Start(t)
	landlord, manager := accountstest.NewUser(t, app), accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, landlord.Token)
	own := workspaceOf(t, app, manager.Token)
	if own == ws {
		t.Fatal("two users share a default workspace")
	}
	join(t, app, ws, manager, auth.Manager)

	id := created(t, in(app, ws, http.MethodPost, "/api/v1/properties", manager.Token, map[string]any{"name": "Flat", "country_code": "DE"}))
	if n := count(t, app, landlord.Token, "/api/v1/properties", ws, "properties"); n != 1 {
		t.Fatalf("the landlord sees %d properties, want the manager's 1", n)
	}
	// Without the header the manager is in their own workspace, where the
	// landlord's property is another's.
	if n := count(t, app, manager.Token, "/api/v1/properties", own, "properties"); n != 0 {
		t.Fatalf("the manager's own workspace has %d properties", n)
	}
	app.Get("/api/v1/properties/"+id, manager.Token).Expect(http.StatusForbidden)

	var mine struct {
		Workspaces []struct {
			ID        int64  `json:"id"`
			Role      string `json:"role"`
			IsDefault bool   `json:"is_default"`
		} `json:"workspaces"`
	}
	app.Get("/api/v1/workspaces", manager.Token).Expect(200).JSON(&mine)
	if len(mine.Workspaces) != 2 || mine.Workspaces[0].ID != ws && mine.Workspaces[1].ID != ws {
		t.Fatalf("the manager's workspaces: %+v", mine.Workspaces)
	}
	for _, w := range mine.Workspaces {
		if (w.ID == ws) != (w.Role == "manager") || (w.ID == own) != w.IsDefault {
			t.Errorf("workspace %+v", w)
		}
	}

	// Made the default, the landlord's workspace is where requests without
	// the header act.
	app.Put("/api/v1/user/profile", manager.Token, map[string]any{"default_workspace_id": ws}).Expect(200)
	if n := count(t, app, manager.Token, "/api/v1/properties", 0, "properties"); n != 1 {
		t.Fatalf("after choosing the default, the manager sees %d properties", n)
	}
}

// The workspace header and the default are checked: a bad value is a 400,
// a workspace the caller is not in a 403 not_a_member, and nothing changes.
func TestWorkspaceChoiceIsChecked(t *testing.T) {
	app := testkit.Start(t)
	a, b := accountstest.NewUser(t, app), accountstest.NewUser(t, app)
	wsA := workspaceOf(t, app, a.Token)
	wsB := workspaceOf(t, app, b.Token)
	own := strconv.FormatInt(wsA, 10)
	// Only the canonical spelling of an id names a workspace: a sign, a
	// leading zero, a space inside, another script's digits are refused,
	// even when they would read as the caller's own workspace.
	for _, bad := range []string{"abc", "0", "-3", "1.5", "99999999999999999999", "+" + own, "0" + own, "00",
		own + " 1", "1_0", "0x1", "1e2", "١", "１", own + " "} {
		res := app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/properties", Token: a.Token,
			Headers: map[string]string{auth.WorkspaceHeader: bad}})
		if res.Status != http.StatusBadRequest || errorCode(t, res) != "validation_failed" {
			t.Errorf("X-Workspace-ID %q: %d %s", bad, res.Status, res.Body)
		}
	}
	for _, ws := range []int64{wsB, wsB + 1000} {
		res := in(app, ws, http.MethodPost, "/api/v1/properties", a.Token, map[string]any{"name": "Flat", "country_code": "DE"})
		if res.Status != http.StatusForbidden || errorCode(t, res) != "not_a_member" {
			t.Errorf("workspace %d: %d %s", ws, res.Status, res.Body)
		}
		app.Get("/api/v1/workspaces/"+strconv.FormatInt(ws, 10), a.Token).Expect(http.StatusForbidden)
	}
	if n := count(t, app, b.Token, "/api/v1/properties", wsB, "properties"); n != 0 {
		t.Fatalf("a refused write left %d properties", n)
	}
	res := app.Put("/api/v1/user/profile", a.Token, map[string]any{"default_workspace_id": wsB, "name": "Changed Name"})
	if res.Status != http.StatusBadRequest || errorCode(t, res) != "validation_failed" {
		t.Fatalf("default in another's workspace: %d %s", res.Status, res.Body)
	}
	var p struct {
		Name               string `json:"name"`
		DefaultWorkspaceID int64  `json:"default_workspace_id"`
	}
	app.Get("/api/v1/user/profile", a.Token).Expect(200).JSON(&p)
	if p.DefaultWorkspaceID != wsA || p.Name == "Changed Name" {
		t.Fatalf("a refused profile change changed it: %+v", p)
	}
}

// A role change or a removal counts from the member's next request; the
// last owner can be neither demoted nor removed, nor leave.
func TestRoleChangesCountAtOnce(t *testing.T) {
	app := testkit.Start(t)
	owner, member := accountstest.NewUser(t, app), accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, owner.Token)
	wsPath := "/api/v1/workspaces/" + strconv.FormatInt(ws, 10)
	memberPath := wsPath + "/members/" + strconv.FormatInt(member.ID, 10)
	ownerPath := wsPath + "/members/" + strconv.FormatInt(owner.ID, 10)
	join(t, app, ws, member, auth.Viewer)
	create := func() *testkit.Response {
		return in(app, ws, http.MethodPost, "/api/v1/properties", member.Token, map[string]any{"name": "Flat", "country_code": "DE"})
	}
	if res := create(); res.Status != http.StatusForbidden || errorCode(t, res) != "forbidden" {
		t.Fatalf("a viewer's write: %d %s", res.Status, res.Body)
	}
	if n := count(t, app, owner.Token, "/api/v1/properties", ws, "properties"); n != 0 {
		t.Fatalf("a viewer's refused write left %d properties", n)
	}
	// A member cannot change roles, their own included.
	app.Do(testkit.Request{Method: http.MethodPatch, Path: memberPath, Token: member.Token, Body: map[string]any{"role": "owner"}}).Expect(http.StatusForbidden)

	app.Do(testkit.Request{Method: http.MethodPatch, Path: memberPath, Token: owner.Token, Body: map[string]any{"role": "manager"}}).Expect(200)
	created(t, create())

	for _, role := range []string{"manager", "viewer"} {
		res := app.Do(testkit.Request{Method: http.MethodPatch, Path: ownerPath, Token: owner.Token, Body: map[string]any{"role": role}})
		if res.Status != http.StatusConflict || errorCode(t, res) != "last_owner" {
			t.Fatalf("demoting the last owner to %s: %d %s", role, res.Status, res.Body)
		}
	}
	if res := app.Delete(ownerPath, owner.Token); res.Status != http.StatusConflict || errorCode(t, res) != "last_owner" {
		t.Fatalf("removing the last owner: %d %s", res.Status, res.Body)
	}
	if res := app.Post(wsPath+"/leave", owner.Token, nil); res.Status != http.StatusConflict || errorCode(t, res) != "last_owner" {
		t.Fatalf("the last owner leaving: %d %s", res.Status, res.Body)
	}
	for _, bad := range []map[string]any{{"role": "admin"}, {"role": ""}, {}} {
		res := app.Do(testkit.Request{Method: http.MethodPatch, Path: memberPath, Token: owner.Token, Body: bad})
		if res.Status != http.StatusBadRequest {
			t.Errorf("role %v: %d %s", bad, res.Status, res.Body)
		}
	}
	var m struct {
		Role string `json:"role"`
	}
	app.Get(memberPath, owner.Token).Expect(200).JSON(&m)
	if m.Role != "manager" {
		t.Fatalf("refused changes left the role %q", m.Role)
	}

	// With a second owner, the first may step down.
	app.Do(testkit.Request{Method: http.MethodPatch, Path: memberPath, Token: owner.Token, Body: map[string]any{"role": "owner"}}).Expect(200)
	app.Do(testkit.Request{Method: http.MethodPatch, Path: ownerPath, Token: member.Token, Body: map[string]any{"role": "viewer"}}).Expect(200)
	app.Do(testkit.Request{Method: http.MethodPatch, Path: wsPath, Token: owner.Token, Body: map[string]any{"name": "Mine"}}).Expect(http.StatusForbidden)

	app.Delete(ownerPath, member.Token).Expect(http.StatusNoContent)
	if res := app.Get(wsPath, owner.Token); res.Status != http.StatusForbidden || errorCode(t, res) != "not_a_member" {
		t.Fatalf("a removed member: %d %s", res.Status, res.Body)
	}
	if n := count(t, app, member.Token, wsPath+"/members", ws, "members"); n != 1 {
		t.Fatalf("%d members left, want 1", n)
	}
}

// A new user's first requests at once share the one workspace the first
// of them makes.
func TestFirstRequestsAtOnceMakeOneWorkspace(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	var wg sync.WaitGroup
	statuses := make([]int, 12)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = app.Get("/api/v1/properties", u.Token).Status
		}()
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("request %d: %d", i, s)
		}
	}
	n, err := app.DB.NewSelect().Table("workspace_members").Where("user_id = ?", u.ID).Count(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("%d memberships (%v), want 1", n, err)
	}
}

// The members list pages by user id: two pages of two and one, the same
// members as one page of all.
func TestMembersArePaged(t *testing.T) {
	app := testkit.Start(t)
	owner := accountstest.NewUser(t, app)
	ws := workspaceOf(t, app, owner.Token)
	for _, role := range []auth.Role{auth.Viewer, auth.Manager} {
		join(t, app, ws, accountstest.NewUser(t, app), role)
	}
	path := "/api/v1/workspaces/" + strconv.FormatInt(ws, 10) + "/members"
	type page struct {
		Members []struct {
			UserID int64 `json:"user_id"`
		} `json:"members"`
		Total *int    `json:"total"`
		Next  *string `json:"next"`
	}
	var all, first, second page
	app.Get(path, owner.Token).Expect(200).JSON(&all)
	if len(all.Members) != 3 || all.Total == nil || *all.Total != 3 || all.Next != nil {
		t.Fatalf("one page of all: %+v", all)
	}
	app.Get(path+"?per_page=2", owner.Token).Expect(200).JSON(&first)
	if len(first.Members) != 2 || first.Next == nil {
		t.Fatalf("first page: %+v", first)
	}
	app.Get(path+"?per_page=2&after="+url.QueryEscape(*first.Next), owner.Token).Expect(200).JSON(&second)
	if len(second.Members) != 1 || second.Next != nil || second.Members[0].UserID != all.Members[2].UserID ||
		first.Members[1].UserID != all.Members[1].UserID {
		t.Fatalf("pages %+v and %+v of %+v", first, second, all)
	}
}

// Spaces around the value never reach the parser's value (HTTP drops
// them, and Go's client does not even send them), so they are tried on
// the wire: a padded id is refused like a signed one.
func TestWorkspaceHeaderPaddedOnTheWire(t *testing.T) {
	app := testkit.Start(t, testkit.WithListener())
	a := accountstest.NewUser(t, app)
	own := strconv.FormatInt(workspaceOf(t, app, a.Token), 10)
	send := func(header string) string {
		conn, err := net.Dial("tcp", strings.TrimPrefix(app.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		req := "GET /api/v1/properties HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + a.Token +
			"\r\n" + header + "\r\nConnection: close\r\n\r\n"
		if _, err := conn.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.Status[:3] + " " + string(body)
	}
	for _, line := range []string{"X-Workspace-ID:  " + own, "X-Workspace-ID: " + own + " ", "X-Workspace-ID:\t" + own,
		"x-workspace-id: +" + own, "X-Workspace-ID: 0" + own} {
		if got := send(line); !strings.HasPrefix(got, "400 ") || !strings.Contains(got, "validation_failed") {
			t.Errorf("%q: %s, want 400 validation_failed", line, got)
		}
	}
	for _, line := range []string{"X-Workspace-ID: " + own, "x-workspace-id:" + own} {
		if got := send(line); !strings.HasPrefix(got, "200 ") {
			t.Errorf("%q: %s, want 200", line, got)
		}
	}
}
