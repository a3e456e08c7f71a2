package httpserver_test

import (
	"bufio"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

// errEntry is a test module with a route that decodes JSON and one that panics.
func errEntry() module.Entry {
	return testkit.Module("errtest", `
paths:
  /api/v1/errtest/echo:
    post:
      operationId: errtestEcho
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object}
      responses:
        "200":
          description: the decoded name
          content:
            application/json:
              schema: {type: object, required: [name], properties: {name: {type: string}}}
  /api/v1/errtest/panic:
    get:
      operationId: errtestPanic
      responses:
        "200":
          description: never
`, func(api fiber.Router) {
		api.Post("/errtest/echo", func(c *fiber.Ctx) error {
			var in struct {
				Name string `json:"name"`
				Age  int    `json:"age"`
			}
			if err := httpserver.DecodeJSON(c, &in); err != nil {
				return err
			}
			return c.JSON(fiber.Map{"name": in.Name})
		})
		api.Get("/errtest/panic", func(*fiber.Ctx) error {
			panic("secret-internal-detail: db password is hunter2")
		})
	})
}

type errorBody struct {
	Error   string   `json:"error"`
	Message string   `json:"message"`
	Details []string `json:"details"`
}

func decodeError(t *testing.T, res *testkit.Response) errorBody {
	t.Helper()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var e errorBody
	res.JSON(&e)
	if e.Message == "" {
		t.Errorf("error body without message: %s", res.Body)
	}
	return e
}

func TestErrorBodies(t *testing.T) {
	app := testkit.Start(t, testkit.WithEntries(append(modules.Catalog(), errEntry())))
	tests := []struct {
		name   string
		req    testkit.Request
		status int
		code   string
		detail string // part of a detail, for validation errors
	}{
		{"unknown route", testkit.Request{Method: http.MethodGet, Path: "/api/v1/no-such-thing"}, 404, "not_found", ""},
		{"unknown route outside the API", testkit.Request{Method: http.MethodGet, Path: "/"}, 404, "not_found", ""},
		{"wrong method", testkit.Request{Method: http.MethodDelete, Path: "/api/v1/health"}, 405, "method_not_allowed", ""},
		{"wrong method on a module route", testkit.Request{Method: http.MethodGet, Path: "/api/v1/errtest/echo"}, 405, "method_not_allowed", ""},
		{"malformed JSON", testkit.Request{Method: http.MethodPost, Path: "/api/v1/errtest/echo", Body: `{"name": "a",`},
			400, "validation_failed", "the JSON ends too early"},
		{"syntax error", testkit.Request{Method: http.MethodPost, Path: "/api/v1/errtest/echo", Body: `{"name" "a"}`},
			400, "validation_failed", "malformed JSON"},
		{"wrong type", testkit.Request{Method: http.MethodPost, Path: "/api/v1/errtest/echo", Body: `{"age": "old"}`},
			400, "validation_failed", "age: must be a integer"},
		{"not an object", testkit.Request{Method: http.MethodPost, Path: "/api/v1/errtest/echo", Body: `[1]`},
			400, "validation_failed", "must be a JSON object"},
		{"empty body", testkit.Request{Method: http.MethodPost, Path: "/api/v1/errtest/echo", Body: ` `},
			400, "validation_failed", "a JSON object is required"},
		{"trailing data", testkit.Request{Method: http.MethodPost, Path: "/api/v1/errtest/echo", Body: `{"name":"a"} {}`},
			400, "validation_failed", "unexpected data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := app.Do(tt.req).Expect(tt.status)
			e := decodeError(t, res)
			if e.Error != tt.code {
				t.Errorf("error %q, want %q", e.Error, tt.code)
			}
			if tt.detail != "" && !strings.Contains(strings.Join(e.Details, "; "), tt.detail) {
				t.Errorf("details %q, want one containing %q", e.Details, tt.detail)
			}
		})
	}
	// Just under the limit is accepted, and unknown fields are ignored.
	var out struct{ Name string }
	app.Post("/api/v1/errtest/echo", "", `{"name":"`+strings.Repeat("a", 1<<20-100)+`","role":"admin"}`).Expect(200).JSON(&out)
	if len(out.Name) != 1<<20-100 {
		t.Errorf("a body just under 1 MiB came back with %d bytes of name", len(out.Name))
	}
}

// A panicking handler gives a 500 that leaks nothing, and the server goes on.
func TestPanicIsInternalError(t *testing.T) {
	app := testkit.Start(t, testkit.WithEntries(append(modules.Catalog(), errEntry())))
	for i := 0; i < 2; i++ {
		res := app.Get("/api/v1/errtest/panic", "").Expect(http.StatusInternalServerError)
		e := decodeError(t, res)
		if e.Error != "internal_error" {
			t.Errorf("error %q, want internal_error", e.Error)
		}
		for _, leak := range []string{"hunter2", "secret-internal", "panic", "goroutine", ".go:"} {
			if strings.Contains(res.String(), leak) {
				t.Errorf("500 body leaks %q: %s", leak, res.Body)
			}
		}
		if res.Header.Get("X-Request-ID") == "" {
			t.Error("no X-Request-ID to quote to support")
		}
		app.Get("/api/v1/health", "").Expect(http.StatusOK)
	}
}

// The server refuses what it reads too much of before any handler runs: a
// body over 1 MiB and a huge header. Only a real connection shows these. The
// client is still writing when the server answers and closes, so Go's client
// may report the reset instead of the answer: the test reads the answer from
// a raw connection while a goroutine writes.
func TestServerLimits(t *testing.T) {
	app := testkit.Start(t, testkit.WithEntries(append(modules.Catalog(), errEntry())), testkit.WithListener())
	if app.URL == "" {
		t.Fatal("WithListener gave no URL")
	}
	body := `{"name":"` + strings.Repeat("a", 1<<20) + `"}`
	tests := []struct {
		name   string
		raw    string
		status int
		code   string
	}{
		{"body over 1 MiB", "POST /api/v1/errtest/echo HTTP/1.1\r\nHost: propman\r\nContent-Type: application/json\r\n" +
			"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body, 413, "payload_too_large"},
		{"1 MB Authorization header", "GET /api/v1/health HTTP/1.1\r\nHost: propman\r\nAuthorization: Bearer " +
			strings.Repeat("x", 1<<20) + "\r\n\r\n", 431, "headers_too_large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := rawExchange(t, strings.TrimPrefix(app.URL, "http://"), tt.raw)
			if status != tt.status {
				t.Fatalf("status %d, want %d; body %s", status, tt.status, body)
			}
			var e errorBody
			if err := json.Unmarshal(body, &e); err != nil || e.Error != tt.code || e.Message == "" {
				t.Errorf("body %s (%v), want the %s error", body, err, tt.code)
			}
			app.Get("/api/v1/health", "").Expect(http.StatusOK)
		})
	}
}

func rawExchange(t *testing.T, addr, raw string) (int, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() { _, _ = io.WriteString(conn, raw) }()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	hres, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer hres.Body.Close()
	body, err := io.ReadAll(hres.Body)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return hres.StatusCode, body
}

func TestCORS(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("http.origins", []string{"https://app.example"}))
	res := app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/health", Headers: map[string]string{"Origin": "https://app.example"}})
	if got := res.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example" {
		t.Errorf("allowed origin: Access-Control-Allow-Origin %q", got)
	}
	res = app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/health", Headers: map[string]string{"Origin": "https://evil.example"}})
	if got := res.Header.Get("Access-Control-Allow-Origin"); got != "" {
		t.Errorf("other origin: Access-Control-Allow-Origin %q, want none", got)
	}
}

// clientIPApp serves GET /ip with the client address the middleware settled.
func clientIPApp(t *testing.T, proxies ...string) *fiber.App {
	t.Helper()
	cfg, err := config.Load(config.Options{Overrides: map[string]any{"http.proxies": proxies}})
	if err != nil {
		t.Fatal(err)
	}
	app, err := httpserver.New(cfg.HTTP, cfg.Database.Timeout, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	app.Get("/ip", func(c *fiber.Ctx) error { return c.SendString(httpserver.ClientIP(c)) })
	return app
}

// getWithHeader sends GET path to app with the header name set to value
// (not sent when value is empty) and returns the answer's header and body.
func getWithHeader(t *testing.T, app *fiber.App, path, name, value string) (http.Header, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if value != "" {
		req.Header.Set(name, value)
	}
	res, err := app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.Header, string(body)
}

// Fiber's test connection comes from 0.0.0.0, so listing 0.0.0.0 as a proxy
// makes the test the proxy.
func TestClientIP(t *testing.T) {
	tests := []struct {
		name    string
		proxies []string
		xff     string
		want    string
	}{
		{"no proxies: header ignored", nil, "203.0.113.9", "0.0.0.0"},
		{"untrusted peer: header ignored", []string{"10.0.0.0/8"}, "203.0.113.9", "0.0.0.0"},
		{"trusted peer: client from header", []string{"0.0.0.0"}, "203.0.113.9", "203.0.113.9"},
		{"rightmost non-proxy wins over a spoofed left entry", []string{"0.0.0.0/32"}, "1.1.1.1, 203.0.113.9", "203.0.113.9"},
		{"proxies in the chain are skipped", []string{"0.0.0.0/32", "10.0.0.0/8"}, "203.0.113.9, 10.1.2.3, 10.0.0.1", "203.0.113.9"},
		{"garbage stops the walk", []string{"0.0.0.0/32"}, "1.1.1.1, garbage", "0.0.0.0"},
		{"no header from a proxy", []string{"0.0.0.0/32"}, "", "0.0.0.0"},
		{"IPv6 client", []string{"0.0.0.0/32"}, "2001:db8::1", "2001:db8::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := getWithHeader(t, clientIPApp(t, tt.proxies...), "/ip", "X-Forwarded-For", tt.xff)
			if got != tt.want {
				t.Errorf("client IP %q, want %q", got, tt.want)
			}
		})
	}
}

// Errors of the server itself (not of a route) are JSON too.
func TestErrorHandlerShapes(t *testing.T) {
	app := clientIPApp(t)
	app.Get("/boom", func(*fiber.Ctx) error { return fiber.NewError(http.StatusTeapot, "short and stout") })
	res, err := app.Test(httptest.NewRequest(http.MethodGet, "/boom", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var e errorBody
	if err := json.NewDecoder(res.Body).Decode(&e); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusTeapot || e.Error != "i'm_a_teapot" || e.Message != "short and stout" {
		t.Errorf("status %d body %+v", res.StatusCode, e)
	}
}

// TestRequestID: a client's X-Request-ID comes back, and is the one the
// access line carries, when it is 1 to 128 printable characters; any other
// is replaced by a UUID of ours.
func TestRequestID(t *testing.T) {
	out := &strings.Builder{}
	log := slog.New(slog.NewTextHandler(out, nil))
	app, err := httpserver.New(config.HTTP{BodyLimit: 1 << 20, ReadTimeout: time.Second, WriteTimeout: time.Second, IdleTimeout: time.Second},
		time.Second, log)
	if err != nil {
		t.Fatal(err)
	}
	app.Get("/x", func(c *fiber.Ctx) error { return c.SendString("ok") })
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	for _, tt := range []struct {
		name, sent string
		kept       bool
	}{
		{"none", "", false},
		{"kept", "abc-123_XYZ.9", true},
		{"128 characters", strings.Repeat("a", 128), true},
		{"129 characters", strings.Repeat("a", 129), false},
		{"space", "a b", false},
		{"not ASCII", "caf\u00e9", false},
		{"quote and equals", `a="b"`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out.Reset()
			header, _ := getWithHeader(t, app, "/x", "X-Request-ID", tt.sent)
			got := header.Get("X-Request-ID")
			if tt.kept && got != tt.sent {
				t.Errorf("X-Request-ID %q, want the client's %q", got, tt.sent)
			}
			if !tt.kept && !uuid.MatchString(got) {
				t.Errorf("X-Request-ID %q, want a UUID of ours", got)
			}
			if want := "request_id=" + strconv.Quote(got); !strings.Contains(out.String(), want) && !strings.Contains(out.String(), "request_id="+got+" ") {
				t.Errorf("access line %q does not carry %s", out.String(), got)
			}
		})
	}
}
