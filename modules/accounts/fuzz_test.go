package accounts_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// fuzzApp starts one app for a fuzz target; each input gets a copy bound to
// its own *testing.T, because *testing.F may not be used inside the target.
func fuzzApp(f *testing.F) *testkit.App {
	return testkit.Start(f, testkit.WithConfig("ratelimit.enabled", false))
}

func forT(app *testkit.App, t *testing.T) *testkit.App {
	a := *app
	a.T = t
	return &a
}

// checkAnswer fails on a 5xx or a body that is not a JSON object. The test
// kit has already checked the answer against doc.json.
func checkAnswer(t *testing.T, res *testkit.Response) {
	t.Helper()
	if res.Status >= 500 {
		t.Fatalf("status %d: %s", res.Status, res.Body)
	}
	var v map[string]any
	if err := json.Unmarshal(res.Body, &v); err != nil {
		t.Fatalf("status %d: body is not a JSON object: %q", res.Status, res.Body)
	}
}

func FuzzRegisterBody(f *testing.F) {
	app := fuzzApp(f)
	for _, s := range []string{
		`{"name":"Anna","email":"anna@example.com"}`,
		`{"name":"Anna","email":"anna@example.com","locale":"de"}`,
		`{"name":"","email":""}`, `{"name":1}`, `[]`, `null`, `{`, `""`, `{"name":"Ä\u0000","email":"a@b.c"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		checkAnswer(t, forT(app, t).Post("/api/v1/auth/register", "", body))
	})
}

func FuzzVerifyBody(f *testing.F) {
	app := fuzzApp(f)
	for _, s := range []string{
		`{"email":"anna@example.com","code":"123456","password":"Tenant-Ledger-2026","country_code":"DE"}`,
		`{"email":"anna@example.com","code":"12345","password":"x","country_code":"XX","phone":"+49"}`,
		`{"code":123456}`, `{}`, `nul`, `{"email":"a@b.c","code":"１２３４５６","password":"Aa1Aa1Aa1","country_code":"de","locale":"UK"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		checkAnswer(t, forT(app, t).Post("/api/v1/auth/register/verify", "", body))
	})
}

func FuzzLoginBody(f *testing.F) {
	app := fuzzApp(f)
	for _, s := range []string{
		`{"email":"anna@example.com","password":"Tenant-Ledger-2026"}`,
		`{"email":"","password":""}`, `{"email":["a"]}`, `{"email":"a@b.c","password":"` + strings.Repeat("x", 600) + `"}`, `{}{}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		res := forT(app, t).Post("/api/v1/auth/login", "", body)
		checkAnswer(t, res)
		if res.Status == 200 {
			t.Fatalf("login succeeded for %q although no user has a password", body)
		}
	})
}

func FuzzAuthorizationHeader(f *testing.F) {
	app := fuzzApp(f)
	u := accountstest.NewUser(f, app)
	for _, s := range []string{
		"Bearer " + u.Token, "Bearer", "bearer  " + u.Token + " ", "Basic abc", "Bearer a.b.c",
		"Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.", "BEARER " + u.Token[:20],
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		// HTTP forbids control characters in header values; the server never
		// sees them.
		if strings.IndexFunc(header, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			t.Skip()
		}
		res := forT(app, t).Do(testkit.Request{Method: "GET", Path: "/api/v1/auth/me", Headers: map[string]string{"Authorization": header}})
		checkAnswer(t, res)
		if res.Status != 200 && res.Status != 401 {
			t.Fatalf("status %d, want 200 or 401", res.Status)
		}
		if res.Status == 200 {
			// Only a bearer token that is valid under the server's key passes
			// (fuzz workers each start their own app, so compare by validity,
			// not by value).
			if len(header) < 7 || !strings.EqualFold(header[:7], "bearer ") {
				t.Fatalf("header %q without the bearer scheme was accepted", header)
			}
			if _, err := app.Tokens.Parse(strings.TrimSpace(header[7:])); err != nil {
				t.Fatalf("header %q was accepted although its token is invalid: %v", header, err)
			}
		}
	})
}
