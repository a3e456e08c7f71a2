// Package testkit starts the whole propman application inside a test, on a
// fresh database (a SQLite file, or a new PostgreSQL database when
// PROPMAN_TEST_DATABASE_URL is set), with a mail catcher and a fake clock,
// and checks every response it sees against the served doc.json.
//
// Use it from external test packages (package foo_test): it imports the
// module catalogue.
package testkit

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/openapi"
	"github.com/propman/propman/platform/tracing"
)

func init() {
	// The API reference page is HTML; the validator needs to know how to read it.
	openapi3filter.RegisterBodyDecoder("text/html", func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef,
		_ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	})
}

// Epoch is where the fake clock of every test starts unless told otherwise.
var Epoch = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// App is a running propman for one test.
type App struct {
	T      testing.TB
	Fiber  *fiber.App
	DB     *bun.DB
	Mail   *mail.Catcher
	Clock  *clock.Fake
	Config *config.Config
	Doc    *openapi.Document
	Tokens *auth.Tokens
	// Tracing is the app's trace provider when tracing.endpoint is set, nil
	// otherwise; tests call its ForceFlush before reading their collector.
	Tracing *tracing.Provider
	// Engine is "sqlite" or "postgres".
	Engine string
	// URL is the server's base URL (http://127.0.0.1:port) when the app was
	// started WithListener; Do then sends requests over the network.
	URL string

	router routers.Router
}

type settings struct {
	overrides map[string]any
	entries   []module.Entry
	start     time.Time
	listen    bool
	populate  []any
}

// Option changes how Start builds the app.
type Option func(*settings)

// WithConfig sets a configuration key (dotted, e.g. "ratelimit.enabled").
func WithConfig(key string, value any) Option {
	return func(s *settings) { s.overrides[key] = value }
}

// WithEntries replaces the module catalogue.
func WithEntries(entries []module.Entry) Option {
	return func(s *settings) { s.entries = entries }
}

// WithListener serves on a real socket (127.0.0.1, a free port), for tests
// of what only a real connection shows: limits the server enforces while
// reading a request (413, 431), keep-alive, shutdown.
func WithListener() Option {
	return func(s *settings) { s.listen = true }
}

// WithPopulate fills targets (pointers) with values of the app's fx graph,
// as fx.Populate does: a test reaches a module's exported service or store,
// e.g. var store *accounts.Store; testkit.WithPopulate(&store).
func WithPopulate(targets ...any) Option {
	return func(s *settings) { s.populate = append(s.populate, targets...) }
}

// WithClock starts the fake clock at t.
func WithClock(t time.Time) Option {
	return func(s *settings) { s.start = t }
}

// Engine reports which database engine tests run on.
func Engine() string {
	if config.TestDatabaseURL() != "" {
		return "postgres"
	}
	return "sqlite"
}

// Config returns a test configuration on a fresh database, for tests that
// build the app themselves (boot.New) or run commands.
func Config(t testing.TB, overrides map[string]any) *config.Config {
	t.Helper()
	o := map[string]any{
		"auth.secret": "test-secret-test-secret-test-secret-0123456789",
		"log.level":   "error",
		// A test waits for its jobs: an idle instance looks every 50 ms.
		"jobs.poll": "50ms",
		// The periodic runs happen when a test calls Tick, never behind
		// its back.
		"jobs.tick": "10000h",
		// Uploaded files go to the test's own folder, not to data/ beside
		// the package's sources.
		"modules.documents.storage": "file:" + filepath.Join(t.TempDir(), "documents"),
	}
	o["database.url"] = FreshDatabase(t)
	for k, v := range overrides {
		o[k] = v
	}
	cfg, err := config.Load(config.Options{Overrides: o})
	if err != nil {
		t.Fatalf("testkit: config: %v", err)
	}
	return cfg
}

var pgAdmin struct {
	once sync.Once
	db   *bun.DB
	err  error
}

// pgAdminDB is the connection to PROPMAN_TEST_DATABASE_URL that creates
// and drops the tests' databases.
func pgAdminDB() (*bun.DB, error) {
	pgAdmin.once.Do(func() {
		cfg := config.Database{URL: config.TestDatabaseURL(), MaxOpen: 4, MaxIdle: 2, Lifetime: time.Minute, Timeout: 10 * time.Second}
		pgAdmin.db, pgAdmin.err = database.Open(context.Background(), cfg)
	})
	if pgAdmin.err != nil {
		return nil, fmt.Errorf("testkit: PostgreSQL at PROPMAN_TEST_DATABASE_URL: %w", pgAdmin.err)
	}
	return pgAdmin.db, nil
}

// FreshDatabase returns the URL of an empty database that is removed when
// the test ends: a SQLite file in the test's temporary folder, or a new
// PostgreSQL database when PROPMAN_TEST_DATABASE_URL is set.
func FreshDatabase(t testing.TB) string {
	t.Helper()
	base := config.TestDatabaseURL()
	if base == "" {
		return "sqlite:" + filepath.Join(t.TempDir(), "propman.db")
	}
	admin, err := pgAdminDB()
	if err != nil {
		t.Fatalf("%v", err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "propman_test_" + hex.EncodeToString(b)
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("testkit: create database: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
			t.Logf("testkit: drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("testkit: PROPMAN_TEST_DATABASE_URL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// Start builds and starts the whole application for t and stops it when t ends.
func Start(t testing.TB, opts ...Option) *App {
	t.Helper()
	s := &settings{overrides: map[string]any{}, start: Epoch}
	for _, o := range opts {
		o(s)
	}
	if s.entries == nil {
		s.entries = modules.Catalog()
	}
	if s.listen {
		s.overrides["http.addr"] = "127.0.0.1:0"
	}
	cfg := Config(t, s.overrides)
	if _, own := s.overrides["database.url"]; !own && cfg.Database.AutoMigrate {
		fromTemplate(t, cfg.Database.URL, s.entries)
	}
	a := &App{T: t, Mail: &mail.Catcher{}, Clock: clock.NewFake(s.start), Config: cfg, Engine: Engine()}
	// Request lines are Info: tests (and benchmarks) run as an operator with
	// log.level=warn would, so formatting them costs nothing.
	log := slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if testing.Verbose() {
		log = boot.Logger(config.Log{Level: "warn", Format: "text"}, testWriter{t})
	}
	extra := []fx.Option{fx.Populate(&a.Fiber, &a.DB, &a.Doc, &a.Tokens, &a.Tracing), fx.Populate(s.populate...)}
	if a.Engine == "postgres" {
		// Registered before the app's stop, so it runs after it: every
		// query of the test has been seen. Installed from an invoke, after
		// boot has migrated and seeded and before anything starts.
		guard := &boundGuard{found: map[string]string{}}
		t.Cleanup(func() { guard.report(t) })
		extra = append(extra, fx.Invoke(func(db *bun.DB) { db.AddQueryHook(guard) })) //nolint:staticcheck // the modules hold this *bun.DB
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fxApp, err := boot.New(ctx, boot.Options{
		Config: cfg, Entries: s.entries, Logger: log, Clock: a.Clock, Mailer: a.Mail,
		Extra:  extra,
		Listen: s.listen,
		OnListen: func(addr net.Addr) {
			a.URL = "http://" + addr.String()
		},
	})
	if err != nil {
		t.Fatalf("testkit: boot: %v", err)
	}
	if err := fxApp.Start(ctx); err != nil {
		t.Fatalf("testkit: start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := fxApp.Stop(ctx); err != nil {
			t.Errorf("testkit: stop: %v", err)
		}
	})
	// Registered after the stop above, so it runs first: a query sent to
	// the pool inside a transaction fails the test that made it.
	t.Cleanup(func() {
		for _, r := range database.PoolInTx(a.DB) {
			t.Errorf("testkit: query on the connection pool inside a transaction of the same request: %s", r)
		}
	})
	a.router, err = routerOf(a.Doc.Spec)
	if err != nil {
		t.Fatalf("testkit: OpenAPI router: %v", err)
	}
	return a
}

// routers holds the OpenAPI router of each spec: the documents are
// shared between the apps of a process (openapi keeps them by content),
// and a router is only read once built.
var specRouters sync.Map // *openapi3.T -> routers.Router

func routerOf(spec *openapi3.T) (routers.Router, error) {
	if r, ok := specRouters.Load(spec); ok {
		return r.(routers.Router), nil
	}
	r, err := gorillamux.NewRouter(spec)
	if err != nil {
		return nil, err
	}
	specRouters.Store(spec, r)
	return r, nil
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// Request is one HTTP request to the app.
type Request struct {
	Method string
	Path   string
	// Body is sent as JSON; a []byte or string is sent as it is.
	Body    any
	Token   string
	Headers map[string]string
	// Client sends the request when the app listens (WithListener);
	// http.DefaultClient when nil. KeepAliveClient gives each caller a
	// connection of its own.
	Client *http.Client
}

// Response is what the app answered.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	t      testing.TB
	req    Request
}

// Do sends req through Fiber and checks the response against doc.json.
func (a *App) Do(req Request) *Response {
	a.T.Helper()
	var body io.Reader
	var raw []byte
	switch b := req.Body.(type) {
	case nil:
	case []byte:
		raw = b
	case string:
		raw = []byte(b)
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			a.T.Fatalf("testkit: encode body: %v", err)
		}
	}
	if raw != nil {
		body = bytes.NewReader(raw)
	}
	hreq := httptest.NewRequest(req.Method, req.Path, body)
	if raw != nil {
		hreq.Header.Set("Content-Type", "application/json")
	}
	if req.Token != "" {
		hreq.Header.Set("Authorization", "Bearer "+req.Token)
	}
	for k, v := range req.Headers {
		hreq.Header.Set(k, v)
	}
	var hres *http.Response
	var err error
	if a.URL != "" {
		hreq.RequestURI = ""
		hreq.URL, err = url.Parse(a.URL + req.Path)
		if err != nil {
			a.T.Fatalf("testkit: %s: %v", req.Path, err)
		}
		hreq.Host = hreq.URL.Host
		client := req.Client
		if client == nil {
			client = http.DefaultClient
		}
		hres, err = client.Do(hreq)
	} else {
		hres, err = a.Fiber.Test(hreq, -1)
	}
	if err != nil {
		a.T.Fatalf("testkit: %s %s: %v", req.Method, req.Path, err)
	}
	defer hres.Body.Close()
	out, err := io.ReadAll(hres.Body)
	if err != nil {
		a.T.Fatalf("testkit: read body: %v", err)
	}
	res := &Response{Status: hres.StatusCode, Header: hres.Header, Body: out, t: a.T, req: req}
	if err := a.Check(req, raw, res); err != nil {
		a.T.Errorf("testkit: %s %s answered %d, which doc.json does not allow: %v\nbody: %s",
			req.Method, req.Path, res.Status, err, truncate(out))
	}
	return res
}

// KeepAliveClient is an HTTP client that keeps one connection to the app
// open and sends every request over it, as a browser or a mobile client
// does: tests of what a request leaves behind in the server (Fiber reuses
// a connection's buffers for its next request) run many of them at once.
func KeepAliveClient(t testing.TB) *http.Client {
	tr := &http.Transport{MaxConnsPerHost: 1, MaxIdleConnsPerHost: 1, IdleConnTimeout: time.Minute}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// Check validates res against doc.json: the status must be documented for
// the operation and the body must match its schema. A response to a route
// the document does not have (404, 405) must be the standard error body.
func (a *App) Check(req Request, reqBody []byte, res *Response) error {
	hreq := httptest.NewRequest(req.Method, req.Path, bytes.NewReader(reqBody))
	hreq.Header.Set("Content-Type", "application/json")
	if res.Status == http.StatusRequestHeaderFieldsTooLarge {
		// The server answers 431 while reading headers, before routing, on
		// any path; it is not an operation's answer, so doc.json leaves it out.
		return checkStandardError(res.Body)
	}
	route, params, err := a.router.FindRoute(hreq)
	if err != nil {
		// Unknown routes and wrong methods have no operation; neither have
		// a stub's prefix and its subpaths, which doc.json lists apart (x-propman-stubs).
		if res.Status != http.StatusNotFound && res.Status != http.StatusMethodNotAllowed &&
			res.Status != http.StatusNotImplemented {
			return fmt.Errorf("no operation in doc.json for this request, yet it answered %d", res.Status)
		}
		return checkStandardError(res.Body)
	}
	if res.Status == http.StatusNotModified {
		return nil
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: hreq, PathParams: params, Route: route,
			Options: &openapi3filter.Options{ExcludeRequestBody: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status: res.Status,
		Header: res.Header,
		Body:   io.NopCloser(bytes.NewReader(res.Body)),
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
		},
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}

func checkStandardError(body []byte) error {
	var e struct {
		Error   *string `json:"error"`
		Message *string `json:"message"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		return fmt.Errorf("error body is not JSON: %w", err)
	}
	if e.Error == nil || e.Message == nil {
		return fmt.Errorf("error body lacks error or message")
	}
	return nil
}

func truncate(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "..."
	}
	return string(b)
}

// Get sends a GET with an optional token.
func (a *App) Get(path, token string) *Response {
	a.T.Helper()
	return a.Do(Request{Method: http.MethodGet, Path: path, Token: token})
}

// Post sends a POST with a JSON body and an optional token.
func (a *App) Post(path, token string, body any) *Response {
	a.T.Helper()
	return a.Do(Request{Method: http.MethodPost, Path: path, Token: token, Body: body})
}

// Put sends a PUT with a JSON body and an optional token.
func (a *App) Put(path, token string, body any) *Response {
	a.T.Helper()
	return a.Do(Request{Method: http.MethodPut, Path: path, Token: token, Body: body})
}

// Delete sends a DELETE with an optional token.
func (a *App) Delete(path, token string) *Response {
	a.T.Helper()
	return a.Do(Request{Method: http.MethodDelete, Path: path, Token: token})
}

// Expect fails the test unless the status is want; it returns r for chaining.
func (r *Response) Expect(want int) *Response {
	r.t.Helper()
	if r.Status != want {
		r.t.Fatalf("%s %s: status %d, want %d\nbody: %s", r.req.Method, r.req.Path, r.Status, want, truncate(r.Body))
	}
	return r
}

// JSON decodes the body into v.
func (r *Response) JSON(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		r.t.Fatalf("%s %s: body is not the expected JSON: %v\nbody: %s", r.req.Method, r.req.Path, err, truncate(r.Body))
	}
}

// Map decodes the body as a JSON object.
func (r *Response) Map() map[string]any {
	r.t.Helper()
	var m map[string]any
	r.JSON(&m)
	return m
}

// String is the body as text.
func (r *Response) String() string { return string(r.Body) }

// RoutesUnder lists the routes the app serves whose path starts with prefix
// (Fiber syntax, e.g. "/api/v1/contracts/:contractId"), each method and path
// once, HEAD, OPTIONS, CONNECT and TRACE left out. Read from Fiber's route
// table, so an access-control test over them covers a route added later
// without being touched.
func (a *App) RoutesUnder(prefix string) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, r := range a.Fiber.GetRoutes(true) {
		switch r.Method {
		case http.MethodHead, http.MethodOptions, http.MethodConnect, http.MethodTrace:
			continue
		}
		if !strings.HasPrefix(r.Path, prefix) {
			continue
		}
		if key := r.Method + " " + r.Path; !seen[key] {
			seen[key] = true
			out = append(out, [2]string{r.Method, r.Path})
		}
	}
	return out
}
