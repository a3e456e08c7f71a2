package accounts_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/testkit"
)

type failureBody struct {
	Success *bool    `json:"success"`
	Error   string   `json:"error"`
	Message string   `json:"message"`
	Details []string `json:"details"`
	Wait    int      `json:"wait"`
}

func countRows(t *testing.T, app *testkit.App, table string) int {
	t.Helper()
	n, err := app.DB.NewSelect().Table(table).Count(context.Background())
	if err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return int(n)
}

func TestRegisterSendsCodeInRequestedLocale(t *testing.T) {
	app := testkit.Start(t)
	var out struct {
		Success bool   `json:"success"`
		Message string `json:"message"`
	}
	app.Post("/api/v1/auth/register", "", map[string]any{"name": "  Jonas Vermieter ", "email": "Jonas@Example.COM", "locale": "de"}).
		Expect(200).JSON(&out)
	if !out.Success || out.Message == "" {
		t.Fatalf("body = %+v, want success with a message", out)
	}
	m, ok := app.Mail.Last("jonas@example.com")
	if !ok {
		t.Fatal("no mail to the lower-cased address")
	}
	code := codeFor(t, app, "jonas@example.com")
	if !strings.Contains(m.Subject, "Bestätigungscode") || !strings.Contains(m.Text, "Jonas Vermieter") {
		t.Fatalf("mail is not the German one for the trimmed name: %q\n%s", m.Subject, m.Text)
	}
	var stored string
	if err := app.DB.NewSelect().Table("verification_codes").Column("code_hash").Where("email = ?", "jonas@example.com").Scan(context.Background(), &stored); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stored, code) || len(stored) != 64 {
		t.Fatalf("stored code %q is not a keyed hash", stored)
	}
	// Unknown or absent locale: English.
	app.Post("/api/v1/auth/register", "", map[string]any{"name": "Jo", "email": "jo@example.com"}).Expect(200)
	if m, _ := app.Mail.Last("jo@example.com"); !strings.HasPrefix(m.Subject, "Your propman verification code") {
		t.Fatalf("subject %q, want English", m.Subject)
	}
}

func TestRegisterRejectsBadInput(t *testing.T) {
	app := testkit.Start(t)
	for _, tc := range []struct {
		name   string
		body   any
		detail string
	}{
		{"empty body", "", "body"},
		{"malformed JSON", `{"name": "Ann"`, "body"},
		{"array", `[1,2]`, "body"},
		{"name missing", map[string]any{"email": "a@example.com"}, "name: is required"},
		{"name one letter after trimming", map[string]any{"name": "  A  ", "email": "a@example.com"}, "name: must be 2 to 100"},
		{"name too long", map[string]any{"name": strings.Repeat("n", 101), "email": "a@example.com"}, "name: must be 2 to 100"},
		{"name wrong type", map[string]any{"name": 5, "email": "a@example.com"}, "name: must be a string"},
		{"email missing", map[string]any{"name": "Ann"}, "email: is required"},
		{"email without domain", map[string]any{"name": "Ann", "email": "ann@"}, "email: must be a valid"},
		{"email too long", map[string]any{"name": "Ann", "email": strings.Repeat("a", 250) + "@example.com"}, "email: must be at most 254"},
		{"inactive locale", map[string]any{"name": "Ann", "email": "a@example.com", "locale": "xx"}, "locale: is not an active"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out failureBody
			app.Post("/api/v1/auth/register", "", tc.body).Expect(400).JSON(&out)
			if out.Success == nil || *out.Success || out.Error != "validation_failed" {
				t.Fatalf("body = %+v, want success:false, error:validation_failed", out)
			}
			if !strings.Contains(strings.Join(out.Details, "|"), tc.detail) {
				t.Fatalf("details %q lack %q", out.Details, tc.detail)
			}
		})
	}
	if n := len(app.Mail.Messages()); n != 0 {
		t.Fatalf("%d mails sent for bad input", n)
	}
	if n := countRows(t, app, "verification_codes"); n != 0 {
		t.Fatalf("%d codes stored for bad input", n)
	}
}

func TestRegisterKnownEmailIsConflict(t *testing.T) {
	app := testkit.Start(t)
	register(t, app, "Anna", "anna@example.com")
	var out failureBody
	app.Post("/api/v1/auth/register", "", map[string]any{"name": "Anna", "email": "ANNA@example.com"}).Expect(409).JSON(&out)
	if out.Success == nil || *out.Success || out.Error != "email_exists" || out.Message == "" {
		t.Fatalf("body = %+v, want success:false, error:email_exists and a message", out)
	}
}

func expectRegisterLimited(t *testing.T, res *testkit.Response, minWait, maxWait int) {
	t.Helper()
	res.Expect(429)
	var out failureBody
	res.JSON(&out)
	if out.Success == nil || *out.Success || out.Error != "rate_limit" || out.Wait < minWait || out.Wait > maxWait {
		t.Fatalf("body = %+v, want rate_limit with wait in [%d, %d]", out, minWait, maxWait)
	}
	if got := res.Header.Get("Retry-After"); got != fmt.Sprint(out.Wait) {
		t.Fatalf("Retry-After = %q, want %d", got, out.Wait)
	}
}

func TestRegisterThrottlePerEmail(t *testing.T) {
	app := testkit.Start(t)
	body := map[string]any{"name": "Anna", "email": "anna@example.com"}
	app.Post("/api/v1/auth/register", "", body).Expect(200)
	first := codeFor(t, app, "anna@example.com")
	app.Clock.Advance(20 * time.Second)
	expectRegisterLimited(t, app.Post("/api/v1/auth/register", "", body), 40, 40)
	if len(app.Mail.Messages()) != 1 {
		t.Fatal("a throttled request sent mail")
	}
	// Codes 2 to 5 of the hour, one a minute.
	for i := 2; i <= 5; i++ {
		app.Clock.Advance(41 * time.Second)
		app.Post("/api/v1/auth/register", "", body).Expect(200)
		app.Clock.Advance(20 * time.Second)
	}
	if last := codeFor(t, app, "anna@example.com"); last == first && countRows(t, app, "verification_codes") != 1 {
		t.Fatal("codes are not replaced")
	}
	app.Clock.Advance(2 * time.Minute)
	// The sixth code within the hour waits for the first to leave the window.
	res := app.Post("/api/v1/auth/register", "", body)
	expectRegisterLimited(t, res, 1, 3600)
	var out failureBody
	res.JSON(&out)
	app.Clock.Advance(time.Duration(out.Wait) * time.Second)
	app.Post("/api/v1/auth/register", "", body).Expect(200)
}

func TestRegisterThrottlePerIP(t *testing.T) {
	app := testkit.Start(t)
	for i := range 20 {
		app.Post("/api/v1/auth/register", "", map[string]any{"name": "Anna", "email": fmt.Sprintf("a%d@example.com", i)}).Expect(200)
	}
	// A client cannot choose another address with X-Forwarded-For.
	res := app.Do(testkit.Request{Method: "POST", Path: "/api/v1/auth/register",
		Body:    map[string]any{"name": "Anna", "email": "a20@example.com"},
		Headers: map[string]string{"X-Forwarded-For": "203.0.113.9"}})
	expectRegisterLimited(t, res, 3600, 3600)
	if _, ok := app.Mail.Last("a20@example.com"); ok {
		t.Fatal("a throttled request sent mail")
	}
	app.Clock.Advance(time.Hour)
	app.Post("/api/v1/auth/register", "", map[string]any{"name": "Anna", "email": "a20@example.com"}).Expect(200)
}

func TestRegisterWithoutPerIPLimits(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("ratelimit.enabled", false))
	for i := range 22 {
		app.Post("/api/v1/auth/register", "", map[string]any{"name": "Anna", "email": fmt.Sprintf("a%d@example.com", i)}).Expect(200)
	}
	// Per-email limits still hold.
	expectRegisterLimited(t, app.Post("/api/v1/auth/register", "", map[string]any{"name": "Anna", "email": "a0@example.com"}), 60, 60)
}

func TestRegisterMailFailureLeavesNothing(t *testing.T) {
	app := testkit.Start(t)
	app.Mail.Fail(errors.New("smtp: connection refused"))
	var out failureBody
	app.Post("/api/v1/auth/register", "", map[string]any{"name": "Anna", "email": "anna@example.com"}).Expect(503).JSON(&out)
	if out.Success == nil || *out.Success || out.Error != "mail_unavailable" {
		t.Fatalf("body = %+v, want success:false, error:mail_unavailable", out)
	}
	if n := countRows(t, app, "verification_codes"); n != 0 {
		t.Fatalf("%d codes stored although no mail went out", n)
	}
	// The per-email throttle was given back: an immediate retry works.
	app.Mail.Fail(nil)
	app.Post("/api/v1/auth/register", "", map[string]any{"name": "Anna", "email": "anna@example.com"}).Expect(200)
	if countRows(t, app, "verification_codes") != 1 {
		t.Fatal("the retry stored no code")
	}
}
