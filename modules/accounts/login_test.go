package accounts_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

type loginFailure struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Wait    int    `json:"wait"`
}

func loginAs(app *testkit.App, email, password, ip string) *testkit.Response {
	req := testkit.Request{Method: "POST", Path: "/api/v1/auth/login", Body: map[string]any{"email": email, "password": password}}
	if ip != "" {
		req.Headers = map[string]string{"X-Forwarded-For": ip}
	}
	return app.Do(req)
}

func expectLoginLimited(t *testing.T, res *testkit.Response, minWait, maxWait int) int {
	t.Helper()
	var out loginFailure
	res.Expect(429).JSON(&out)
	if out.Code != 429 || out.Message == "" || out.Wait < minWait || out.Wait > maxWait {
		t.Fatalf("body = %+v, want code 429 with wait in [%d, %d]", out, minWait, maxWait)
	}
	if res.Header.Get("Retry-After") != fmt.Sprint(out.Wait) {
		t.Fatalf("Retry-After = %q, want %d", res.Header.Get("Retry-After"), out.Wait)
	}
	return out.Wait
}

func TestLoginIssuesWorkingToken(t *testing.T) {
	app := testkit.Start(t)
	id := register(t, app, "Anna", "anna@example.com")
	token := login(t, app, " Anna@Example.com ", goodPassword)
	claims, err := app.Tokens.Parse(token)
	if err != nil {
		t.Fatal(err)
	}
	if claims.Subject != fmt.Sprint(id) || claims.AuthTime != app.Clock.Now().Unix() {
		t.Fatalf("claims = %+v, want sub %d and auth_time now", claims, id)
	}
	var me struct {
		ID int64 `json:"id"`
	}
	app.Get("/api/v1/auth/me", token).Expect(200).JSON(&me)
	if me.ID != id {
		t.Fatalf("me.id = %d, want %d", me.ID, id)
	}
}

func TestLoginFailuresLookTheSame(t *testing.T) {
	app := testkit.Start(t)
	register(t, app, "Anna", "anna@example.com")
	register(t, app, "Bert", "bert@example.com")
	if _, err := app.DB.NewUpdate().Table("users").Set("is_active = ?", false).Where("email = ?", "bert@example.com").Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, tc := range []struct{ email, password string }{
		{"nobody@example.com", goodPassword},
		{"anna@example.com", "Wrong-Password-1"},
		{"anna@example.com", strings.ToLower(goodPassword)},
		{"anna@example.com", goodPassword + " "}, // not trimmed
		{"bert@example.com", goodPassword},       // inactive
	} {
		res := loginAs(app, tc.email, tc.password, "").Expect(401)
		bodies = append(bodies, res.String())
	}
	for _, b := range bodies {
		if b != `{"code":401,"message":"Invalid credentials."}` {
			t.Fatalf("401 bodies differ or are not the documented one: %q", bodies)
		}
	}
}

func TestLoginRejectsBadBody(t *testing.T) {
	app := testkit.Start(t)
	for name, body := range map[string]any{
		"empty":            "",
		"malformed":        `{"email"`,
		"email missing":    map[string]any{"password": "x"},
		"password missing": map[string]any{"email": "a@example.com"},
		"email too long":   map[string]any{"email": strings.Repeat("a", 255), "password": "x"},
		"password huge":    map[string]any{"email": "a@example.com", "password": strings.Repeat("x", 513)},
		"wrong types":      map[string]any{"email": 1, "password": true},
	} {
		t.Run(name, func(t *testing.T) {
			var out struct {
				Error   string   `json:"error"`
				Details []string `json:"details"`
			}
			app.Post("/api/v1/auth/login", "", body).Expect(400).JSON(&out)
			if out.Error != "validation_failed" || len(out.Details) == 0 {
				t.Fatalf("body = %+v", out)
			}
		})
	}
}

func TestLoginThrottlePerEmailAndIP(t *testing.T) {
	app := testkit.Start(t)
	register(t, app, "Anna", "anna@example.com")
	for range 5 {
		loginAs(app, "anna@example.com", "Wrong-Password-1", "").Expect(401)
	}
	// The sixth attempt is refused, even with the right password and a
	// forged X-Forwarded-For.
	app.Clock.Advance(time.Minute)
	expectLoginLimited(t, loginAs(app, "anna@example.com", goodPassword, ""), 840, 840)
	expectLoginLimited(t, loginAs(app, "anna@example.com", goodPassword, "198.51.100.7"), 840, 840)
	// Another account from the same address is not locked.
	register(t, app, "Bert", "bert@example.com")
	login(t, app, "bert@example.com", goodPassword)
	app.Clock.Advance(14 * time.Minute)
	login(t, app, "anna@example.com", goodPassword)
}

func TestLoginSuccessClearsCount(t *testing.T) {
	app := testkit.Start(t)
	register(t, app, "Anna", "anna@example.com")
	for range 4 {
		loginAs(app, "anna@example.com", "Wrong-Password-1", "").Expect(401)
	}
	login(t, app, "anna@example.com", goodPassword)
	for range 5 {
		loginAs(app, "anna@example.com", "Wrong-Password-1", "").Expect(401)
	}
	expectLoginLimited(t, loginAs(app, "anna@example.com", "Wrong-Password-1", ""), 1, 900)
}

// behindProxy trusts the test connection's address as a proxy, so
// X-Forwarded-For names the client.
func behindProxy(t *testing.T, opts ...testkit.Option) *testkit.App {
	return testkit.Start(t, append(opts, testkit.WithConfig("http.proxies", []string{"0.0.0.0"}))...)
}

func TestLoginThrottlePerEmailAcrossIPs(t *testing.T) {
	app := behindProxy(t)
	register(t, app, "Anna", "anna@example.com")
	for i := range 50 {
		loginAs(app, "anna@example.com", "Wrong-Password-1", fmt.Sprintf("198.51.100.%d", i/4+1)).Expect(401)
	}
	expectLoginLimited(t, loginAs(app, "anna@example.com", goodPassword, "203.0.113.200"), 3600, 3600)
}

func TestLoginThrottlePerIP(t *testing.T) {
	app := behindProxy(t)
	for i := range 100 {
		loginAs(app, fmt.Sprintf("n%d@example.com", i), "Wrong-Password-1", "198.51.100.1").Expect(401)
	}
	expectLoginLimited(t, loginAs(app, "other@example.com", "Wrong-Password-1", "198.51.100.1"), 3600, 3600)
	loginAs(app, "other@example.com", "Wrong-Password-1", "198.51.100.2").Expect(401)
}

func TestLoginWithoutPerIPLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("101 password checks")
	}
	app := behindProxy(t, testkit.WithConfig("ratelimit.enabled", false))
	for i := range 101 {
		loginAs(app, fmt.Sprintf("n%d@example.com", i), "Wrong-Password-1", "198.51.100.1").Expect(401)
	}
	// Per-email limits still hold.
	for range 5 {
		loginAs(app, "anna@example.com", "Wrong-Password-1", "198.51.100.1").Expect(401)
	}
	expectLoginLimited(t, loginAs(app, "anna@example.com", "Wrong-Password-1", "198.51.100.1"), 900, 900)
}
