package webapp_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/propman/propman/clients/web"
	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/testkit"
	"github.com/propman/propman/platform/webapp"
)

// start boots the whole service, with the committed build of clients/web
// when withWeb, and returns its Fiber app.
func start(t *testing.T, withWeb bool) *fiber.App {
	t.Helper()
	var app *fiber.App
	o := boot.Options{
		Config: testkit.Config(t, nil), Entries: modules.Catalog(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Extra:  []fx.Option{fx.Populate(&app)},
	}
	if withWeb {
		o.Web = web.Dist()
	}
	fxApp, err := boot.New(context.Background(), o)
	if err != nil {
		t.Fatalf("boot.New: %v", err)
	}
	if err := fxApp.Start(context.Background()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = fxApp.Stop(context.Background()) })
	return app
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func get(t *testing.T, app *fiber.App, path string, header map[string]string) answer {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := app.Test(req, -1)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{res.StatusCode, res.Header, b}
}

var (
	assetPattern  = regexp.MustCompile(`(?:src|href)="(/assets/[^"]+)"`)
	inlineScript  = regexp.MustCompile(`<script(?:\s[^>]*)?>`)
	scriptWithSrc = regexp.MustCompile(`\ssrc=`)
)

// The page is the app's index.html, never cached without asking, under a
// CSP that allows scripts from the app's origin only, and it has no inline
// script that such a CSP would block.
func TestAppIsServedAtRoot(t *testing.T) {
	t.Parallel()
	app := start(t, true)
	a := get(t, app, "/", nil)
	if a.status != http.StatusOK || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %s", a.status, a.header.Get("Content-Type"))
	}
	if !bytes.Contains(a.body, []byte(`<div id="root"></div>`)) {
		t.Errorf("GET / is not the app's page:\n%s", a.body)
	}
	if got := a.header.Get("Cache-Control"); got != "no-cache" {
		t.Errorf("index.html Cache-Control %q, want no-cache", got)
	}
	csp := a.header.Get("Content-Security-Policy")
	if csp != webapp.CSP {
		t.Errorf("CSP %q, want %q", csp, webapp.CSP)
	}
	for _, directive := range strings.Split(csp, ";") {
		d := strings.TrimSpace(directive)
		if strings.HasPrefix(d, "script-src") && d != "script-src 'self'" {
			t.Errorf("scripts may come from elsewhere than the app's origin: %q", d)
		}
	}
	if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "object-src 'none'") {
		t.Errorf("CSP lacks frame-ancestors or object-src: %q", csp)
	}
	if got := a.header.Get("Referrer-Policy"); got != "no-referrer" {
		t.Errorf("Referrer-Policy %q: tokens in page addresses could leak", got)
	}
	for _, tag := range inlineScript.FindAll(a.body, -1) {
		if !scriptWithSrc.Match(tag) {
			t.Errorf("inline script in index.html: %s", tag)
		}
	}
	if len(assetPattern.FindAllSubmatch(a.body, -1)) < 2 {
		t.Errorf("index.html names no script and style under /assets/:\n%s", a.body)
	}
}

// Hashed assets are cached for a year as immutable, sent gzipped to whoever
// takes it, and revalidated with their ETag.
func TestAssetsAreImmutable(t *testing.T) {
	t.Parallel()
	app := start(t, true)
	index := get(t, app, "/", nil)
	matches := assetPattern.FindAllSubmatch(index.body, -1)
	if len(matches) == 0 {
		t.Fatal("no assets in index.html")
	}
	for _, m := range matches {
		path := string(m[1])
		plain := get(t, app, path, nil)
		if plain.status != http.StatusOK {
			t.Fatalf("GET %s: %d", path, plain.status)
		}
		if got := plain.header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
			t.Errorf("%s Cache-Control %q", path, got)
		}
		want := map[bool]string{true: "text/javascript", false: "text/css"}[strings.HasSuffix(path, ".js")]
		if !strings.HasPrefix(plain.header.Get("Content-Type"), want) {
			t.Errorf("%s Content-Type %q, want %s", path, plain.header.Get("Content-Type"), want)
		}
		zipped := get(t, app, path, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
		if zipped.header.Get("Content-Encoding") != "gzip" || len(zipped.body) >= len(plain.body) {
			t.Errorf("%s not gzipped: %q, %d of %d bytes", path, zipped.header.Get("Content-Encoding"), len(zipped.body), len(plain.body))
		} else {
			zr, err := gzip.NewReader(bytes.NewReader(zipped.body))
			if err != nil {
				t.Fatal(err)
			}
			unzipped, _ := io.ReadAll(zr)
			if !bytes.Equal(unzipped, plain.body) {
				t.Errorf("%s: the gzipped body is not the file", path)
			}
		}
		if refused := get(t, app, path, map[string]string{"Accept-Encoding": "gzip;q=0"}); refused.header.Get("Content-Encoding") != "" {
			t.Errorf("%s gzipped although refused with q=0", path)
		}
		again := get(t, app, path, map[string]string{"If-None-Match": plain.header.Get("ETag")})
		if again.status != http.StatusNotModified || len(again.body) != 0 {
			t.Errorf("%s with its ETag: %d, %d bytes", path, again.status, len(again.body))
		}
	}
	if a := get(t, app, "/assets/index-missing.js", nil); a.status != http.StatusNotFound {
		t.Errorf("a missing asset: %d, want 404 (not the page)", a.status)
	}
}

// Every page a mail links to, and any other path outside the API, answers
// with the app's page, whose router shows it.
func TestUnknownPathsFallBackToTheApp(t *testing.T) {
	t.Parallel()
	app := start(t, true)
	index := get(t, app, "/", nil)
	for _, path := range []string{
		"/sign-in", "/register?next=%2F",
		"/tenancy/accept?token=abc_DEF-123", "/accept-invitation?token=abc",
		"/negotiations/3f1c0c1e-7d8e-4a5b-9c0d-1e2f3a4b5c6d.AAAA", "/work-orders/abcDEF123",
		"/listings/bright-2-room-flat", "/auth/oidc?code=abc", "/no/such/page",
	} {
		a := get(t, app, path, nil)
		if a.status != http.StatusOK || !bytes.Equal(a.body, index.body) {
			t.Errorf("GET %s: %d, the app's page: %v", path, a.status, bytes.Equal(a.body, index.body))
		}
		if a.header.Get("Content-Security-Policy") != webapp.CSP || a.header.Get("Cache-Control") != "no-cache" {
			t.Errorf("GET %s: CSP %q, Cache-Control %q", path, a.header.Get("Content-Security-Policy"), a.header.Get("Cache-Control"))
		}
	}
}

// The API keeps its own answers: its routes, and its JSON 404 for a path
// it does not have, which the app's fallback must not swallow.
func TestAPIStaysJSON(t *testing.T) {
	t.Parallel()
	for _, withWeb := range []bool{true, false} {
		app := start(t, withWeb)
		if a := get(t, app, "/api/v1/health", nil); a.status != http.StatusOK || !strings.HasPrefix(a.header.Get("Content-Type"), "application/json") {
			t.Errorf("web %v: health %d %s", withWeb, a.status, a.header.Get("Content-Type"))
		}
		for _, path := range []string{"/api/v1/no-such-route", "/api/v1/no/such/route", "/api/v2/x", "/api"} {
			a := get(t, app, path, nil)
			var body struct {
				Error string `json:"error"`
			}
			if a.status != http.StatusNotFound || !strings.HasPrefix(a.header.Get("Content-Type"), "application/json") ||
				json.Unmarshal(a.body, &body) != nil || body.Error != "not_found" {
				t.Errorf("web %v: GET %s: %d %s %s", withWeb, path, a.status, a.header.Get("Content-Type"), a.body)
			}
			if a.header.Get("Content-Security-Policy") != "" {
				t.Errorf("web %v: GET %s carries the app's CSP", withWeb, path)
			}
		}
	}
	// Without the build (an API-only start), / is the API's JSON 404.
	if a := get(t, start(t, false), "/", nil); a.status != http.StatusNotFound || !strings.HasPrefix(a.header.Get("Content-Type"), "application/json") {
		t.Errorf("API only: GET / %d %s", a.status, a.header.Get("Content-Type"))
	}
}
