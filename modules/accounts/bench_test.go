package accounts_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// These go straight to Fiber (no doc.json validation) to measure the
// service, not the test kit.

// BenchmarkLogin is bound by argon2id (m=19 MiB, t=2, p=1).
func BenchmarkLogin(b *testing.B) {
	app := testkit.Start(b, testkit.WithConfig("ratelimit.enabled", false))
	app.Post("/api/v1/auth/register", "", map[string]any{"name": "Anna", "email": "anna@example.com"}).Expect(200)
	m, _ := app.Mail.Last("anna@example.com")
	app.Post("/api/v1/auth/register/verify", "", map[string]any{
		"email": "anna@example.com", "code": codePattern.FindString(m.Text), "password": goodPassword, "country_code": "DE",
	}).Expect(201)
	body := `{"email":"anna@example.com","password":"` + goodPassword + `"}`
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "/api/v1/auth/login", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			res, err := app.Fiber.Test(req, -1)
			if err != nil || res.StatusCode != 200 {
				b.Fatalf("login: %v %v", err, res.StatusCode)
			}
			res.Body.Close()
		}
	})
}

// BenchmarkMe is one token check and /auth/me answered from the user the
// check loaded: "cachettl=0" reads the user on every request (the old
// behaviour on SQLite), "cached" keeps it (modules.accounts.cachettl 5s, the
// default); both in one run so their ratio means something.
//
//	go test -run '^$' -bench 'Me$' -count 5 ./modules/accounts/
func BenchmarkMe(b *testing.B) {
	for _, c := range []struct{ name, ttl string }{{"cachettl=0", "0s"}, {"cached", "5s"}} {
		b.Run(c.name, func(b *testing.B) {
			app := testkit.Start(b, testkit.WithConfig("modules.accounts.cachettl", c.ttl))
			u := accountstest.NewUser(b, app)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req := httptest.NewRequest(http.MethodGet, "/api/v1/auth/me", nil)
					req.Header.Set("Authorization", "Bearer "+u.Token)
					res, err := app.Fiber.Test(req, -1)
					if err != nil || res.StatusCode != 200 {
						b.Fatalf("me: %v %v", err, res.StatusCode)
					}
					res.Body.Close()
				}
			})
		})
	}
}
