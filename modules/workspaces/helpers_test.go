package workspaces_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

// workspaceOf returns the id of the user's default workspace (their own,
// made on this first request).
func workspaceOf(t *testing.T, app *testkit.App, token string) int64 {
	t.Helper()
	var p struct {
		DefaultWorkspaceID *int64 `json:"default_workspace_id"`
	}
	app.Get("/api/v1/user/profile", token).Expect(200).JSON(&p)
	if p.DefaultWorkspaceID == nil {
		t.Fatal("the profile has no default_workspace_id")
	}
	return *p.DefaultWorkspaceID
}

// join makes u a member of the workspace with role, as an accepted
// invitation would.
func join(t *testing.T, app *testkit.App, workspaceID int64, u accountstest.User, role auth.Role) {
	t.Helper()
	now := time.Now().UTC()
	_, err := database.Exec(context.Background(), app.DB, app.DB.NewRaw(
		`INSERT INTO workspace_members (workspace_id, user_id, role, is_default, created_at, updated_at) VALUES (?, ?, ?, FALSE, ?, ?)`,
		database.Param{V: workspaceID}, database.Param{V: u.ID}, role.String(), now, now))
	if err != nil {
		t.Fatalf("join: %v", err)
	}
}

// in sends req in the workspace with id (X-Workspace-ID), or in the
// caller's default one when id is 0.
func in(app *testkit.App, workspaceID int64, method, path, token string, body any) *testkit.Response {
	req := testkit.Request{Method: method, Path: path, Token: token, Body: body}
	if workspaceID != 0 {
		req.Headers = map[string]string{auth.WorkspaceHeader: strconv.FormatInt(workspaceID, 10)}
	}
	return app.Do(req)
}

// errorCode is the "error" of a standard error body.
func errorCode(t *testing.T, res *testkit.Response) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal(res.Body, &e)
	return e.Error
}

// created is the id of the record a 201 answered.
func created(t *testing.T, res *testkit.Response) string {
	t.Helper()
	res.Expect(201)
	var rec struct {
		ID string `json:"id"`
	}
	res.JSON(&rec)
	return rec.ID
}
