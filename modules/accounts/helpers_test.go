package accounts_test

import (
	"regexp"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

const goodPassword = "Tenant-Ledger-2026"

var codePattern = regexp.MustCompile(`\b[0-9]{6}\b`)

// codeFor reads the code of the last message sent to email.
func codeFor(t *testing.T, app *testkit.App, email string) string {
	t.Helper()
	m, ok := app.Mail.Last(email)
	if !ok {
		t.Fatalf("no mail to %s", email)
	}
	code := codePattern.FindString(m.Text)
	if code == "" || codePattern.FindString(m.HTML) != code {
		t.Fatalf("mail to %s: no code in both parts:\n%s\n%s", email, m.Text, m.HTML)
	}
	return code
}

// register runs both steps and returns the new user's id.
func register(t *testing.T, app *testkit.App, name, email string) int64 {
	t.Helper()
	app.Post("/api/v1/auth/register", "", map[string]any{"name": name, "email": email}).Expect(200)
	var out struct {
		User struct {
			ID int64 `json:"id"`
		} `json:"user"`
	}
	app.Post("/api/v1/auth/register/verify", "", map[string]any{
		"email": email, "code": codeFor(t, app, email), "password": goodPassword, "country_code": "DE",
	}).Expect(201).JSON(&out)
	return out.User.ID
}

func login(t *testing.T, app *testkit.App, email, password string) string {
	t.Helper()
	var out struct {
		Token string `json:"token"`
	}
	app.Post("/api/v1/auth/login", "", map[string]any{"email": email, "password": password}).Expect(200).JSON(&out)
	return out.Token
}
