package httpserver_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// TestSecurityHeaders: every answer says X-Content-Type-Options: nosniff,
// errors the server writes before any handler included; every answer
// behind a token says Cache-Control: no-store, 401s included; public reads
// keep their revalidation (no-cache).
func TestSecurityHeaders(t *testing.T) {
	app := testkit.Start(t, testkit.WithEntries(append(modules.Catalog(), errEntry())), testkit.WithListener())
	user := accountstest.NewUser(t, app)
	tests := []struct {
		name   string
		req    testkit.Request
		status int
		cache  string
	}{
		{"public read", testkit.Request{Method: "GET", Path: "/api/v1/countries/DE"}, 200, "no-cache"},
		{"service info", testkit.Request{Method: "GET", Path: "/api/v1"}, 200, ""},
		{"unknown route", testkit.Request{Method: "GET", Path: "/api/v1/no-such-thing"}, 404, ""},
		{"wrong method", testkit.Request{Method: "PATCH", Path: "/api/v1/countries"}, 405, ""},
		{"malformed JSON", testkit.Request{Method: "POST", Path: "/api/v1/auth/login", Body: "{"}, 400, ""},
		{"me", testkit.Request{Method: "GET", Path: "/api/v1/auth/me", Token: user.Token}, 200, "no-store"},
		{"dictionary behind a token", testkit.Request{Method: "GET", Path: "/api/v1/translations/de", Token: user.Token}, 200, "no-store"},
		{"protected without a token", testkit.Request{Method: "GET", Path: "/api/v1/properties"}, 401, "no-store"},
		{"protected error", testkit.Request{Method: "GET", Path: "/api/v1/properties/nope", Token: user.Token}, 404, "no-store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := app.Do(tt.req).Expect(tt.status)
			if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q, want nosniff", got)
			}
			if got := res.Header.Get("Cache-Control"); got != tt.cache {
				t.Errorf("Cache-Control %q, want %q", got, tt.cache)
			}
		})
	}
	addr := strings.TrimPrefix(app.URL, "http://")
	body := `{"name":"` + strings.Repeat("a", 1<<20) + `"}`
	for name, raw := range map[string]string{
		"413": "POST /api/v1/errtest/echo HTTP/1.1\r\nHost: propman\r\nContent-Type: application/json\r\nContent-Length: " +
			strconv.Itoa(len(body)) + "\r\n\r\n" + body,
		"431": "GET /api/v1/health HTTP/1.1\r\nHost: propman\r\nAuthorization: Bearer " + strings.Repeat("x", 1<<20) + "\r\n\r\n",
	} {
		res := rawResponse(t, addr, raw)
		if strconv.Itoa(res.StatusCode) != name || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: status %d, X-Content-Type-Options %q", name, res.StatusCode, res.Header.Get("X-Content-Type-Options"))
		}
	}
}

// TestCORSPreflight: a configured origin's preflight gets 204 with the
// methods and headers a web client needs; an unlisted origin gets nothing
// that allows it, and neither does any origin when none is configured.
func TestCORSPreflight(t *testing.T) {
	preflight := func(app *testkit.App, origin string) answer {
		req, err := http.NewRequest(http.MethodOptions, app.URL+"/api/v1/properties", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return answer{res.StatusCode, res.Header}
	}
	app := testkit.Start(t, testkit.WithListener(), testkit.WithConfig("http.origins", []string{"https://app.example"}))
	res := preflight(app, "https://app.example")
	if res.StatusCode != http.StatusNoContent {
		t.Errorf("listed origin: status %d, want 204", res.StatusCode)
	}
	if got := res.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example" {
		t.Errorf("listed origin: Access-Control-Allow-Origin %q", got)
	}
	methods := res.Header.Get("Access-Control-Allow-Methods")
	for _, m := range []string{"GET", "POST", "PUT", "DELETE"} {
		if !strings.Contains(methods, m) {
			t.Errorf("Access-Control-Allow-Methods %q lacks %s", methods, m)
		}
	}
	headers := strings.ToLower(res.Header.Get("Access-Control-Allow-Headers"))
	for _, h := range []string{"authorization", "content-type"} {
		if !strings.Contains(headers, h) {
			t.Errorf("Access-Control-Allow-Headers %q lacks %s", headers, h)
		}
	}
	for _, origin := range []string{"https://evil.example", "https://app.example.evil.example", "null"} {
		res := preflight(app, origin)
		if got := res.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("unlisted origin %s: Access-Control-Allow-Origin %q, want none", origin, got)
		}
	}
	closed := testkit.Start(t, testkit.WithListener())
	if got := preflight(closed, "https://app.example").Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("no origins configured: Access-Control-Allow-Origin %q, want none", got)
	}
}

// rawResponse sends raw over a new connection while reading the answer
// (the server may answer and close before the client has sent it all).
// answer is what the tests read of a response whose body was drained and
// closed.
type answer struct {
	StatusCode int
	Header     http.Header
}

func rawResponse(t *testing.T, addr, raw string) answer {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	go func() { _, _ = io.WriteString(conn, raw) }()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return answer{res.StatusCode, res.Header}
}
