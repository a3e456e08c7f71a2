package jobsui_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/jobs/jobsui"
	"github.com/propman/propman/platform/testkit"
)

// raw sends a request below /admin/jobs that doc.json does not describe
// (riverui's own JSON API and assets) through Fiber, unchecked by the
// document; the status and body are the test's to check.
func raw(t *testing.T, app *testkit.App, method, path string, headers map[string]string) (int, http.Header, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := app.Fiber.Test(req, -1)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, body
}

func bearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

func cookie(value string) map[string]string {
	return map[string]string{"Cookie": jobsui.CookieName + "=" + value}
}

// sessionCookie is the value of the cookie an answer sets, and its
// attributes.
func sessionCookie(t *testing.T, h http.Header) (*http.Cookie, string) {
	t.Helper()
	for _, line := range h.Values("Set-Cookie") {
		if c, err := http.ParseSetCookie(line); err == nil && c.Name == jobsui.CookieName {
			return c, line
		}
	}
	t.Fatalf("no %s cookie set: %v", jobsui.CookieName, h.Values("Set-Cookie"))
	return nil, ""
}

// River's web UI answers an admin only: 401 without a credential or with
// a bad one, 403 (JSON) for a landlord, 200 for an admin with a bearer
// token or with the cookie POST /admin/jobs/session sets; River's JSON API
// below the prefix is guarded the same and lists this service's own jobs
// (the periodic runs a tick queued), on both engines.
func TestJobsUIIsForAdminsOnly(t *testing.T) {
	var q *jobs.Queue
	var users *accounts.Store
	app := testkit.Start(t, testkit.WithPopulate(&q, &users))
	landlord := accountstest.NewUser(t, app)
	admin := accountstest.NewUser(t, app, "ROLE_USER", "ROLE_ADMIN")

	// The page.
	res := app.Get(jobsui.Prefix, "").Expect(http.StatusUnauthorized)
	if res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("401 Cache-Control %q", res.Header.Get("Cache-Control"))
	}
	if m := app.Get(jobsui.Prefix, landlord.Token).Expect(http.StatusForbidden).Map(); m["error"] != "forbidden" {
		t.Errorf("landlord: %v", m)
	}
	app.Get(jobsui.Prefix, "not-a-token").Expect(http.StatusUnauthorized)
	page := app.Get(jobsui.Prefix, admin.Token).Expect(http.StatusOK)
	if ct := page.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("page Content-Type %q", ct)
	}
	if body := page.String(); !strings.Contains(body, "<title>River</title>") || !strings.Contains(body, `"apiUrl":"/admin/jobs/api"`) {
		t.Errorf("not River's page for the prefix:\n%.600s", body)
	}

	// The cookie: only for an admin with a bearer token.
	app.Post(jobsui.Prefix+"/session", "", nil).Expect(http.StatusUnauthorized)
	app.Post(jobsui.Prefix+"/session", landlord.Token, nil).Expect(http.StatusForbidden)
	res = app.Post(jobsui.Prefix+"/session", admin.Token, nil).Expect(http.StatusOK)
	c, line := sessionCookie(t, res.Header)
	if !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteStrictMode || c.Path != jobsui.Prefix || c.Value == "" {
		t.Errorf("cookie %q", line)
	}
	if life := c.Expires.Sub(app.Clock.Now()); life <= 0 || life > time.Hour {
		t.Errorf("cookie lives %s", life)
	}
	var session struct {
		URL string `json:"url"`
	}
	res.JSON(&session)
	// A browser sends the cookie alone.
	app.Do(testkit.Request{Method: http.MethodGet, Path: jobsui.Prefix, Headers: cookie(c.Value)}).Expect(http.StatusOK)
	if status, _, body := raw(t, app, http.MethodGet, session.URL, cookie(c.Value)); status != http.StatusOK || !strings.Contains(string(body), "<title>River</title>") {
		t.Errorf("GET %s with the cookie: %d %.200s", session.URL, status, body)
	}
	// The cookie is no access token of the API, nor an access token a cookie.
	app.Get("/api/v1/workspaces", c.Value).Expect(http.StatusUnauthorized)
	app.Do(testkit.Request{Method: http.MethodGet, Path: jobsui.Prefix, Headers: cookie(admin.Token)}).Expect(http.StatusUnauthorized)
	// A cookie cannot make itself another.
	app.Do(testkit.Request{Method: http.MethodPost, Path: jobsui.Prefix + "/session", Headers: cookie(c.Value)}).Expect(http.StatusUnauthorized)
	// A landlord's cookie does not exist; a forged or expired one is 401.
	app.Do(testkit.Request{Method: http.MethodGet, Path: jobsui.Prefix, Headers: cookie(c.Value + "x")}).Expect(http.StatusUnauthorized)

	// River's JSON API below the prefix, with our jobs in it: a tick at
	// 10:00 UTC queues the landlord's workspace's billing and late fees.
	app.Post("/api/v1/properties", landlord.Token, map[string]any{"name": "Flat", "country_code": "ES"}).Expect(http.StatusCreated)
	if n, err := q.Tick(context.Background()); err != nil || n == 0 {
		t.Fatalf("tick: %d, %v", n, err)
	}
	api := jobsui.Prefix + "/api/jobs?state=completed&limit=100"
	for _, h := range []struct {
		headers map[string]string
		want    int
	}{{nil, http.StatusUnauthorized}, {bearer(landlord.Token), http.StatusForbidden}, {cookie("forged"), http.StatusUnauthorized}} {
		status, _, body := raw(t, app, http.MethodGet, api, h.headers)
		var e struct {
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		if status != h.want || json.Unmarshal(body, &e) != nil || e.Message == "" {
			t.Errorf("GET %s with %v: %d %s, want %d", api, h.headers, status, body, h.want)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		status, _, body := raw(t, app, http.MethodGet, api, cookie(c.Value))
		var list struct {
			Data []struct {
				Kind  string `json:"kind"`
				State string `json:"state"`
			} `json:"data"`
		}
		if status != http.StatusOK || json.Unmarshal(body, &list) != nil {
			t.Fatalf("GET %s: %d %.300s", api, status, body)
		}
		runs := 0
		for _, j := range list.Data {
			if j.Kind == "periodic_run" {
				runs++
			}
		}
		if runs >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("River's UI lists %d completed periodic runs after 20 s: %s", runs, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, path := range []string{"/api/states", "/api/queues", "/api/features"} {
		if status, _, body := raw(t, app, http.MethodGet, jobsui.Prefix+path, bearer(admin.Token)); status != http.StatusOK || !json.Valid(body) {
			t.Errorf("GET %s: %d %.300s", jobsui.Prefix+path, status, body)
		}
	}
	if status, h, _ := raw(t, app, http.MethodGet, jobsui.Prefix+"/favicon.ico", cookie(c.Value)); status != http.StatusOK || h.Get("Content-Type") == "" {
		t.Errorf("favicon: %d", status)
	}

	// The user is read on every request: a cookie of a user who lost
	// ROLE_ADMIN is refused at once.
	u, err := users.ByID(context.Background(), admin.ID)
	if err != nil {
		t.Fatal(err)
	}
	u.Roles = accounts.RolesOf("ROLE_USER")
	if err := users.SetRoles(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	app.Do(testkit.Request{Method: http.MethodGet, Path: jobsui.Prefix, Headers: cookie(c.Value)}).Expect(http.StatusForbidden)
	u.Roles = accounts.RolesOf("ROLE_USER", "ROLE_ADMIN")
	if err := users.SetRoles(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	app.Do(testkit.Request{Method: http.MethodGet, Path: jobsui.Prefix, Headers: cookie(c.Value)}).Expect(http.StatusOK)
	// An hour later the cookie has expired.
	app.Clock.Set(app.Clock.Now().Add(time.Hour + time.Minute))
	app.Do(testkit.Request{Method: http.MethodGet, Path: jobsui.Prefix, Headers: cookie(c.Value)}).Expect(http.StatusUnauthorized)

	// Signing out clears the cookie.
	res = app.Do(testkit.Request{Method: http.MethodDelete, Path: jobsui.Prefix + "/session"}).Expect(http.StatusNoContent)
	if gone, line := sessionCookie(t, res.Header); gone.Value != "" || !gone.Expires.Before(app.Clock.Now()) || gone.Path != jobsui.Prefix {
		t.Errorf("clearing cookie %q", line)
	}
}

// jobs.ui false: no UI, 404, and doc.json does not describe it.
func TestJobsUISwitchedOff(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("jobs.ui", false))
	admin := accountstest.NewUser(t, app, "ROLE_USER", "ROLE_ADMIN")
	app.Get(jobsui.Prefix, admin.Token).Expect(http.StatusNotFound)
	app.Post(jobsui.Prefix+"/session", admin.Token, nil).Expect(http.StatusNotFound)
	if status, _, _ := raw(t, app, http.MethodGet, jobsui.Prefix+"/api/jobs", bearer(admin.Token)); status != http.StatusNotFound {
		t.Errorf("River's API with the UI off: %d", status)
	}
	for _, op := range app.Doc.Operations() {
		if strings.Contains(op, jobsui.Prefix) {
			t.Errorf("doc.json describes %s with the UI off", op)
		}
	}
}
