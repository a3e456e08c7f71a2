package oidc_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/oidc/internal/testop"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/testkit"
)

// The API's origin as the provider knows it. The test is the browser: it
// sends what the provider redirects to under this origin to the app.
const (
	publicURL = "http://localhost:8080"
	webURL    = "https://app.example.com/signed-in?from=oidc"
	provider  = "corp"
)

type env struct {
	t   testing.TB
	app *testkit.App
	op  *testop.Provider
}

func start(t testing.TB, opts ...testkit.Option) *env {
	t.Helper()
	op := testop.Start(t, publicURL+"/api/v1/auth/oidc/"+provider+"/callback")
	op.SignInAs(testop.User{Subject: "u-1", Email: "Ada@Example.com", EmailVerified: true, Name: "Ada Lovelace", Locale: "de-DE"})
	base := []testkit.Option{
		testkit.WithListener(),
		// The provider signs with the real time; the app's clock starts there.
		testkit.WithClock(time.Now()),
		testkit.WithConfig("modules.oidc.publicurl", publicURL),
		testkit.WithConfig("modules.oidc.weburl", webURL),
		testkit.WithConfig("modules.oidc.providers."+provider+".issuer", op.Issuer),
		testkit.WithConfig("modules.oidc.providers."+provider+".clientid", op.ClientID),
		testkit.WithConfig("modules.oidc.providers."+provider+".clientsecret", op.ClientSecret),
		testkit.WithConfig("modules.oidc.providers."+provider+".domains", []string{"example.com", "example.org"}),
		testkit.WithConfig("modules.oidc.providers."+provider+".country", "de"),
	}
	return &env{t: t, app: testkit.Start(t, append(base, opts...)...), op: op}
}

// browser keeps cookies and follows no redirect by itself, so each step
// of the dance can be looked at (and tampered with).
type browser struct {
	e      *env
	jar    *cookiejar.Jar
	client *http.Client
}

func (e *env) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{e: e, jar: jar, client: &http.Client{
		Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// start opens /start and returns the provider's authorization URL.
func (b *browser) start() *url.URL {
	b.e.t.Helper()
	res := b.e.app.Do(testkit.Request{Method: "GET", Path: "/api/v1/auth/oidc/" + provider + "/start", Client: b.client}).Expect(http.StatusFound)
	u, err := url.Parse(res.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(u.String(), b.e.op.Issuer) {
		b.e.t.Fatalf("start redirected to %q", res.Header.Get("Location"))
	}
	return u
}

// atProvider follows the provider's redirects (authorize, login, its
// callback) until it sends the browser back to the API.
func (b *browser) atProvider(u *url.URL) *url.URL {
	b.e.t.Helper()
	for range 10 {
		if strings.HasPrefix(u.String(), publicURL) {
			return u
		}
		res, err := b.client.Get(u.String())
		if err != nil {
			b.e.t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusFound && res.StatusCode != http.StatusSeeOther {
			b.e.t.Fatalf("provider answered %d at %s", res.StatusCode, u)
		}
		if u, err = u.Parse(res.Header.Get("Location")); err != nil {
			b.e.t.Fatal(err)
		}
	}
	b.e.t.Fatalf("provider never redirected back")
	return nil
}

// callback sends the provider's redirect to the API and returns where the
// API sent the browser, which must be the web client.
func (b *browser) callback(u *url.URL) url.Values {
	b.e.t.Helper()
	return b.callbackWith(u, nil)
}

func (b *browser) callbackWith(u *url.URL, headers map[string]string) url.Values {
	b.e.t.Helper()
	res := b.e.app.Do(testkit.Request{Method: "GET", Path: u.RequestURI(), Client: b.client, Headers: headers}).Expect(http.StatusFound)
	to := res.Header.Get("Location")
	base, _, _ := strings.Cut(webURL, "?")
	if !strings.HasPrefix(to, base+"?") {
		b.e.t.Fatalf("callback redirected to %q, not to the web client", to)
	}
	if !strings.Contains(res.Header.Get("Set-Cookie"), "propman_oidc=;") {
		b.e.t.Errorf("callback did not clear the flow cookie: %q", res.Header.Get("Set-Cookie"))
	}
	v, _ := url.ParseQuery(to[len(base)+1:])
	if v.Get("from") != "oidc" {
		b.e.t.Errorf("the web URL's own query was lost: %q", to)
	}
	return v
}

// signIn runs the whole dance and returns the web client's query.
func (b *browser) signIn() url.Values {
	b.e.t.Helper()
	return b.callback(b.atProvider(b.start()))
}

func (e *env) exchange(code string) (string, int) {
	e.t.Helper()
	res := e.app.Post("/api/v1/auth/oidc/exchange", "", map[string]string{"code": code})
	var out struct {
		Token string `json:"token"`
		Error string `json:"error"`
	}
	res.JSON(&out)
	if res.Status != http.StatusOK {
		return out.Error, res.Status
	}
	return out.Token, res.Status
}

type me struct {
	ID      int64  `json:"id"`
	Email   string `json:"email"`
	Name    string `json:"name"`
	Locale  string `json:"locale"`
	Country struct {
		Code string `json:"code"`
	} `json:"country"`
}

func (e *env) me(token string) me {
	e.t.Helper()
	var m me
	e.app.Get("/api/v1/auth/me", token).Expect(http.StatusOK).JSON(&m)
	return m
}

func wantError(t *testing.T, got url.Values, want string) {
	t.Helper()
	if got.Get("error") != want || got.Get("code") != "" || got.Get("provider") != provider {
		t.Fatalf("web client got %v, want error=%s provider=%s and no code", got, want, provider)
	}
}

func TestSignInCreatesAccountThenLinksIt(t *testing.T) {
	e := start(t)
	b := e.browser()
	auth := b.start()
	q := auth.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("nonce") == "" || q.Get("state") == "" {
		t.Fatalf("authorization URL lacks PKCE S256, nonce or state: %s", auth)
	}
	if q.Get("redirect_uri") != publicURL+"/api/v1/auth/oidc/corp/callback" || q.Get("client_id") != e.op.ClientID {
		t.Fatalf("authorization URL: %s", auth)
	}
	got := b.callback(b.atProvider(auth))
	code := got.Get("code")
	if code == "" || got.Get("error") != "" {
		t.Fatalf("web client got %v", got)
	}
	token, status := e.exchange(code)
	if status != http.StatusOK {
		t.Fatalf("exchange: %d %s", status, token)
	}
	m := e.me(token)
	if m.Email != "ada@example.com" || m.Name != "Ada Lovelace" || m.Locale != "de" || m.Country.Code != "DE" {
		t.Fatalf("created account: %+v", m)
	}
	// The account has no password: a login with an empty one fails.
	e.app.Post("/api/v1/auth/login", "", map[string]string{"email": "ada@example.com", "password": "x"}).Expect(http.StatusUnauthorized)

	// A second sign-in finds the same account.
	token2, status := e.exchange(e.browser().signIn().Get("code"))
	if status != http.StatusOK || e.me(token2).ID != m.ID {
		t.Fatalf("second sign-in: %d, account %d, want %d", status, e.me(token2).ID, m.ID)
	}
	var users int
	if err := e.app.DB.NewRaw("SELECT COUNT(*) FROM users WHERE email = ?", "ada@example.com").Scan(t.Context(), &users); err != nil || users != 1 {
		t.Fatalf("users with the email: %d, %v", users, err)
	}
}

func TestSignInLinksExistingAccountByVerifiedEmail(t *testing.T) {
	e := start(t)
	u := accountstest.NewUser(t, e.app)
	e.op.SignInAs(testop.User{Subject: "someone", Email: strings.ToUpper(u.Email), EmailVerified: true, Name: "X"})
	token, status := e.exchange(e.browser().signIn().Get("code"))
	if status != http.StatusOK {
		t.Fatalf("exchange: %d", status)
	}
	if m := e.me(token); m.ID != u.ID {
		t.Fatalf("signed in as %d, want the existing account %d", m.ID, u.ID)
	}
}

func TestOneTimeCodeIsSingleUseAndShortLived(t *testing.T) {
	e := start(t)
	code := e.browser().signIn().Get("code")
	if _, status := e.exchange(code); status != http.StatusOK {
		t.Fatalf("first exchange: %d", status)
	}
	if got, status := e.exchange(code); status != http.StatusBadRequest || got != "invalid_code" {
		t.Fatalf("replayed code: %d %s", status, got)
	}
	late := e.browser().signIn().Get("code")
	e.app.Clock.Advance(61 * time.Second)
	if got, status := e.exchange(late); status != http.StatusBadRequest || got != "invalid_code" {
		t.Fatalf("code after 61 s: %d %s", status, got)
	}
	if got, status := e.exchange("not-a-code"); status != http.StatusBadRequest || got != "invalid_code" {
		t.Fatalf("made-up code: %d %s", status, got)
	}
	e.app.Post("/api/v1/auth/oidc/exchange", "", map[string]string{"code": strings.Repeat("a", 129)}).Expect(http.StatusBadRequest)
	e.app.Post("/api/v1/auth/oidc/exchange", "", map[string]any{}).Expect(http.StatusBadRequest)
	// Only the keyed hash is stored.
	var stored int
	if err := e.app.DB.NewRaw("SELECT COUNT(*) FROM oidc_codes WHERE code_hash = ?", late).Scan(t.Context(), &stored); err != nil || stored != 0 {
		t.Fatalf("a code is stored as it is: %d %v", stored, err)
	}
}

func TestWrongStateIsRefused(t *testing.T) {
	e := start(t)
	b := e.browser()
	back := b.atProvider(b.start())
	q := back.Query()
	q.Set("state", "forged")
	back.RawQuery = q.Encode()
	wantError(t, b.callback(back), "invalid_state")

	// A callback in another browser than the one that started has no
	// flow cookie.
	b2 := e.browser()
	wantError(t, e.browser().callback(b2.atProvider(b2.start())), "invalid_state")

	// An expired flow.
	b3 := e.browser()
	back = b3.atProvider(b3.start())
	e.app.Clock.Advance(11 * time.Minute)
	wantError(t, b3.callback(back), "invalid_state")
}

func TestReplayedCallbackIsRefused(t *testing.T) {
	e := start(t)
	b := e.browser()
	back := b.atProvider(b.start())
	var cookie string
	for _, c := range b.jar.Cookies(&url.URL{Scheme: "http", Host: strings.TrimPrefix(e.app.URL, "http://"), Path: "/api/v1/auth/oidc/"}) {
		if c.Name == "propman_oidc" {
			cookie = c.Name + "=" + c.Value
		}
	}
	if cookie == "" {
		t.Fatal("start set no flow cookie")
	}
	if b.callback(back).Get("code") == "" {
		t.Fatal("first callback failed")
	}
	// The same callback again, with the flow cookie put back: the
	// provider refuses its code a second time.
	wantError(t, e.browser().callbackWith(back, map[string]string{"Cookie": cookie}), "exchange_failed")
}

func TestWrongNonceIsRefused(t *testing.T) {
	e := start(t)
	b := e.browser()
	auth := b.start()
	q := auth.Query()
	q.Set("nonce", "injected")
	auth.RawQuery = q.Encode()
	wantError(t, b.callback(b.atProvider(auth)), "invalid_nonce")
}

func TestWrongPKCEVerifierIsRefused(t *testing.T) {
	e := start(t)
	b := e.browser()
	auth := b.start()
	q := auth.Query()
	q.Set("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
	auth.RawQuery = q.Encode()
	wantError(t, b.callback(b.atProvider(auth)), "exchange_failed")
}

func TestUnverifiedEmailIsRefused(t *testing.T) {
	e := start(t)
	e.op.SignInAs(testop.User{Subject: "u-2", Email: "eve@example.com", EmailVerified: false, Name: "Eve"})
	wantError(t, e.browser().signIn(), "email_not_verified")
	var users int
	if err := e.app.DB.NewRaw("SELECT COUNT(*) FROM users WHERE email = ?", "eve@example.com").Scan(t.Context(), &users); err != nil || users != 0 {
		t.Fatalf("an account was created: %d %v", users, err)
	}
}

func TestExpiredIDTokenIsRefused(t *testing.T) {
	e := start(t)
	e.op.SetIDTokenLifetime(time.Minute)
	b := e.browser()
	back := b.atProvider(b.start())
	e.app.Clock.Advance(2 * time.Minute)
	wantError(t, b.callback(back), "invalid_token")
}

func TestDisallowedDomainIsRefused(t *testing.T) {
	e := start(t)
	e.op.SignInAs(testop.User{Subject: "u-3", Email: "mallory@example.net", EmailVerified: true, Name: "Mallory"})
	wantError(t, e.browser().signIn(), "domain_not_allowed")
	// A subdomain is another domain.
	e.op.SignInAs(testop.User{Subject: "u-4", Email: "m@evil.example.com", EmailVerified: true, Name: "M"})
	wantError(t, e.browser().signIn(), "domain_not_allowed")
}

func TestInactiveAccountIsRefused(t *testing.T) {
	e := start(t)
	u := accountstest.NewUser(t, e.app)
	if _, err := e.app.DB.NewRaw("UPDATE users SET is_active = ? WHERE email = ?", false, u.Email).Exec(t.Context()); err != nil {
		t.Fatal(err)
	}
	e.op.SignInAs(testop.User{Subject: "s", Email: u.Email, EmailVerified: true})
	wantError(t, e.browser().signIn(), "account_inactive")
}

func TestUnknownProvider(t *testing.T) {
	e := start(t)
	for _, path := range []string{"/api/v1/auth/oidc/nope/start", "/api/v1/auth/oidc/nope/callback?state=a&code=b"} {
		res := e.app.Get(path, "").Expect(http.StatusNotFound)
		if res.Map()["error"] != "not_found" {
			t.Errorf("%s: %s", path, res.Body)
		}
	}
}

func TestProviderDeclined(t *testing.T) {
	e := start(t)
	wantError(t, e.browser().callback(&url.URL{Path: "/api/v1/auth/oidc/corp/callback", RawQuery: "error=access_denied&state=x"}), "access_denied")
	wantError(t, e.browser().callback(&url.URL{Path: "/api/v1/auth/oidc/corp/callback", RawQuery: "error=server_error"}), "provider_error")

}

func TestProviderUnreachable(t *testing.T) {
	e := start(t)
	e.op.SetDown(true)
	e.app.Get("/api/v1/auth/oidc/corp/start", "").Expect(http.StatusServiceUnavailable)
	// Within 5 s of a failure the next request fails without asking the
	// provider (it is up again, and still the answer is 503)...
	e.op.SetDown(false)
	e.app.Get("/api/v1/auth/oidc/corp/start", "").Expect(http.StatusServiceUnavailable)
	// ...later it is asked again, and the sign-in goes through.
	e.app.Clock.Advance(6 * time.Second)
	if _, status := e.exchange(e.browser().signIn().Get("code")); status != http.StatusOK {
		t.Fatalf("sign-in after the provider came back: %d", status)
	}
}

func TestUnknownCountryStopsTheStart(t *testing.T) {
	op := testop.Start(t, publicURL+"/api/v1/auth/oidc/x/callback")
	cfg := testkit.Config(t, map[string]any{
		"modules.oidc.publicurl": publicURL, "modules.oidc.weburl": webURL,
		"modules.oidc.providers.x.issuer": op.Issuer, "modules.oidc.providers.x.clientid": "c",
		"modules.oidc.providers.x.country": "QQ",
	})
	_, err := boot.New(t.Context(), boot.Options{Config: cfg, Entries: modules.Catalog(), Logger: slog.New(slog.DiscardHandler)})
	if err == nil || !strings.Contains(err.Error(), "modules.oidc.providers.x.country") {
		t.Fatalf("boot: %v", err)
	}
}

func TestFlowCookie(t *testing.T) {
	e := start(t, testkit.WithConfig("modules.oidc.publicurl", "https://api.example.com"))
	startAt := func(e *env) *testkit.Response {
		return e.app.Do(testkit.Request{Method: "GET", Path: "/api/v1/auth/oidc/corp/start", Client: e.browser().client}).Expect(http.StatusFound)
	}
	res := startAt(e)
	c := res.Header.Get("Set-Cookie")
	for _, want := range []string{"propman_oidc=", "path=/api/v1/auth/oidc/", "max-age=600", "HttpOnly", "secure", "SameSite=Lax"} {
		if !strings.Contains(strings.ToLower(c), strings.ToLower(want)) {
			t.Errorf("flow cookie %q lacks %s", c, want)
		}
	}
	if !strings.Contains(res.Header.Get("Location"), url.QueryEscape("https://api.example.com/api/v1/auth/oidc/corp/callback")) {
		t.Errorf("redirect_uri not from publicurl: %s", res.Header.Get("Location"))
	}
	// Over http (development) the cookie cannot be Secure, or the browser
	// would not send it back.
	plain := startAt(start(t)).Header.Get("Set-Cookie")
	if strings.Contains(strings.ToLower(plain), "secure") {
		t.Errorf("cookie over http is Secure: %q", plain)
	}
}

// Many browsers sign in at once as one new user, through fewer database
// connections than browsers: one account, every one a token for it.
func TestConcurrentSignIns(t *testing.T) {
	e := start(t, testkit.WithConfig("database.maxopen", 4))
	e.op.SignInAs(testop.User{Subject: "c", Email: "crowd@example.org", EmailVerified: true, Name: "Crowd"})
	const n = 12
	backs := make([]*url.URL, n)
	browsers := make([]*browser, n)
	for i := range n {
		browsers[i] = e.browser()
		backs[i] = browsers[i].atProvider(browsers[i].start())
	}
	ids := make([]int64, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			res := e.app.Do(testkit.Request{Method: "GET", Path: backs[i].RequestURI(), Client: browsers[i].client})
			loc, _ := url.Parse(res.Header.Get("Location"))
			code := loc.Query().Get("code")
			if res.Status != http.StatusFound || code == "" {
				errs <- fmt.Errorf("callback %d: %d %s", i, res.Status, loc)
				return
			}
			var out struct{ Token string }
			r := e.app.Post("/api/v1/auth/oidc/exchange", "", map[string]string{"code": code})
			if r.Status != http.StatusOK {
				errs <- fmt.Errorf("exchange %d: %d %s", i, r.Status, r.Body)
				return
			}
			r.JSON(&out)
			var m me
			e.app.Get("/api/v1/auth/me", out.Token).JSON(&m)
			ids[i] = m.ID
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, id := range ids[1:] {
		if id != ids[0] || id == 0 {
			t.Fatalf("accounts: %v", ids)
		}
	}
}
