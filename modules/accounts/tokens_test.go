package accounts_test

import (
	"context"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

type tokenClaims struct {
	jwt.RegisteredClaims
	Version  int   `json:"ver"`
	AuthTime int64 `json:"auth_time"`
}

// forge signs claims for user id with method and key.
func forge(t *testing.T, method jwt.SigningMethod, key any, mutate func(*tokenClaims)) string {
	t.Helper()
	now := testkit.Epoch
	c := &tokenClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject: "1", Issuer: "propman", ID: "x",
			IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)),
		},
		AuthTime: now.Unix(),
	}
	if mutate != nil {
		mutate(c)
	}
	s, err := jwt.NewWithClaims(method, c).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func expectUnauthorized(t *testing.T, res *testkit.Response, message string) {
	t.Helper()
	var out loginFailure
	res.Expect(401).JSON(&out)
	if out.Code != 401 || out.Message != message {
		t.Fatalf("body = %+v, want {code:401, message:%q}", out, message)
	}
}

func TestMeRefusesBadTokens(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	if u.ID != 1 {
		t.Fatalf("the forged tokens assume user 1, got %d", u.ID)
	}
	secret := []byte(app.Config.Auth.Secret)
	app.Get("/api/v1/auth/me", forge(t, jwt.SigningMethodHS256, secret, nil)).Expect(200)

	for _, tc := range []struct {
		name, header, message string
	}{
		{"no header", "", "JWT Token not found"},
		{"not bearer", "Basic dXNlcjpwYXNz", "JWT Token not found"},
		{"empty bearer", "Bearer ", "JWT Token not found"},
		{"garbage", "Bearer not.a.jwt", "Invalid JWT Token"},
		{"alg none", "Bearer " + forge(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, nil), "Invalid JWT Token"},
		{"HS512", "Bearer " + forge(t, jwt.SigningMethodHS512, secret, nil), "Invalid JWT Token"},
		{"another key", "Bearer " + forge(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-0123456789"), nil), "Invalid JWT Token"},
		{"expired", "Bearer " + forge(t, jwt.SigningMethodHS256, secret, func(c *tokenClaims) {
			c.IssuedAt = jwt.NewNumericDate(testkit.Epoch.Add(-2 * time.Hour))
			c.ExpiresAt = jwt.NewNumericDate(testkit.Epoch.Add(-time.Hour))
		}), "Expired JWT Token"},
		{"no expiry", "Bearer " + forge(t, jwt.SigningMethodHS256, secret, func(c *tokenClaims) { c.ExpiresAt = nil }), "Invalid JWT Token"},
		{"other issuer", "Bearer " + forge(t, jwt.SigningMethodHS256, secret, func(c *tokenClaims) { c.Issuer = "evil" }), "Invalid JWT Token"},
		{"old version", "Bearer " + forge(t, jwt.SigningMethodHS256, secret, func(c *tokenClaims) { c.Version = -1 }), "Invalid JWT Token"},
		{"unknown user", "Bearer " + forge(t, jwt.SigningMethodHS256, secret, func(c *tokenClaims) { c.Subject = "999" }), "Invalid JWT Token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := testkit.Request{Method: "GET", Path: "/api/v1/auth/me"}
			if tc.header != "" {
				req.Headers = map[string]string{"Authorization": tc.header}
			}
			expectUnauthorized(t, app.Do(req), tc.message)
			req.Method, req.Path = "POST", "/api/v1/auth/refresh"
			expectUnauthorized(t, app.Do(req), tc.message)
		})
	}
}

func TestTokensOfInactiveUserAreRefused(t *testing.T) {
	// Deactivated by hand, as an operator would: on PostgreSQL the instance
	// hears of it at the commit's notification (see principals). On SQLite
	// the serving process does not hear edits it does not make; an operator
	// who edits users by hand sets cachettl to 0, as here.
	var opts []testkit.Option
	if testkit.Engine() == "sqlite" {
		opts = append(opts, testkit.WithConfig("modules.accounts.cachettl", "0s"))
	}
	app := testkit.Start(t, opts...)
	u := accountstest.NewUser(t, app)
	app.Get("/api/v1/auth/me", u.Token).Expect(200)
	if _, err := app.DB.NewUpdate().Table("users").Set("is_active = ?", false).Where("id = ?", u.ID).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the deactivated user's token is refused", func() bool {
		return app.Get("/api/v1/auth/me", u.Token).Status == 401
	})
	expectUnauthorized(t, app.Get("/api/v1/auth/me", u.Token), "Invalid JWT Token")
}

func TestTokenExpiresWithTheClock(t *testing.T) {
	app := testkit.Start(t)
	u := accountstest.NewUser(t, app)
	app.Clock.Advance(59 * time.Minute)
	app.Get("/api/v1/auth/me", u.Token).Expect(200)
	app.Clock.Advance(2 * time.Minute)
	expectUnauthorized(t, app.Get("/api/v1/auth/me", u.Token), "Expired JWT Token")
}

func TestRefreshKeepsAuthTimeUntilMaxAge(t *testing.T) {
	app := testkit.Start(t)
	register(t, app, "Anna", "anna@example.com")
	token := login(t, app, "anna@example.com", goodPassword)
	loginTime := app.Clock.Now().Unix()
	// Refresh every 50 minutes for 30 days: the chain lives as long as
	// auth.maxage allows and no longer.
	var out struct {
		Message   string `json:"message"`
		Token     string `json:"token"`
		ExpiresIn int    `json:"expires_in"`
	}
	step := 50 * time.Minute
	steps := int((30 * 24 * time.Hour) / step)
	for i := 0; i < steps; i++ {
		app.Clock.Advance(step)
		res := app.Post("/api/v1/auth/refresh", token, nil)
		res.Expect(200).JSON(&out)
		if out.Message == "" || out.ExpiresIn != 3600 || out.Token == token {
			t.Fatalf("refresh %d: body = %+v", i, out)
		}
		token = out.Token
	}
	claims, err := app.Tokens.Parse(token)
	if err != nil || claims.AuthTime != loginTime {
		t.Fatalf("auth_time %d (err %v), want the login's %d", claims.AuthTime, err, loginTime)
	}
	app.Clock.Advance(step)
	expectUnauthorized(t, app.Post("/api/v1/auth/refresh", token, nil), "The login is too old to refresh; log in again.")
	// The token itself is still valid until it expires.
	app.Get("/api/v1/auth/me", token).Expect(200)
}
