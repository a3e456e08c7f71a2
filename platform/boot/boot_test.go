package boot_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// slowEntry is a test module with one route that answers after it is told
// to, so a test can hold a request in flight.
func slowEntry(started chan<- struct{}, release <-chan struct{}) module.Entry {
	return module.Entry{
		Name: "slowtest", Summary: "test module", Status: module.Ready,
		OpenAPI: []byte(`
paths:
  /api/v1/slowtest:
    get:
      operationId: slowTest
      responses:
        "200":
          description: done
          content:
            application/json:
              schema: {type: object}
`),
		Options: module.ProvideRoutes(func() module.Routes {
			return module.Routes{Module: "slowtest", Register: func(api fiber.Router) {
				api.Get("/slowtest", func(c *fiber.Ctx) error {
					started <- struct{}{}
					<-release
					return c.JSON(fiber.Map{"done": true})
				})
			}}
		}),
	}
}

// Stop lets a request in flight finish with 200, then refuses new connections.
func TestGracefulShutdown(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	cfg := testkit.Config(t, map[string]any{"http.addr": "127.0.0.1:0", "http.shutdowntimeout": "10s"})
	addrs := make(chan net.Addr, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	app, err := boot.New(ctx, boot.Options{
		Config: cfg, Entries: append(modules.Catalog(), slowEntry(started, release)), Logger: quiet(),
		Listen: true, OnListen: func(a net.Addr) { addrs <- a },
	})
	if err != nil {
		t.Fatalf("boot.New: %v", err)
	}
	if err := app.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	addr := (<-addrs).String()
	base := "http://" + addr + "/api/v1"

	res, err := http.Get(base + "/health")
	if err != nil {
		t.Fatalf("GET health before stop: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("health before stop: %d", res.StatusCode)
	}

	type result struct {
		status int
		body   string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		res, err := client.Get(base + "/slowtest")
		if err != nil {
			done <- result{err: err}
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		done <- result{status: res.StatusCode, body: string(b), err: err}
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the slow request never reached its handler")
	}

	stopped := make(chan error, 1)
	go func() { stopped <- app.Stop(ctx) }()
	// Stop must wait for the request; let the handler go only once the
	// listener is closed, so the request is truly in flight during Stop.
	waitRefused(t, addr)
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned (%v) while a request was in flight", err)
	default:
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatalf("Stop: %v", err)
	}
	r := <-done
	if r.err != nil || r.status != http.StatusOK || !strings.Contains(r.body, `"done":true`) {
		t.Fatalf("request in flight: status %d body %q err %v; want 200 with its body", r.status, r.body, r.err)
	}
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Fatal("a new connection was accepted after Stop")
	}
}

// Stop ends within http.shutdowntimeout even while a client that never
// stops sending holds a connection draining after its 413 (http.lingertime
// is far longer): the drain is cut, and the client sees its connection end.
func TestShutdownCutsDrains(t *testing.T) {
	cfg := testkit.Config(t, map[string]any{"http.addr": "127.0.0.1:0", "http.shutdowntimeout": "500ms", "http.lingertime": "1m"})
	addrs := make(chan net.Addr, 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	app, err := boot.New(ctx, boot.Options{
		Config: cfg, Entries: modules.Catalog(), Logger: quiet(),
		Listen: true, OnListen: func(a net.Addr) { addrs <- a },
	})
	if err != nil {
		t.Fatalf("boot.New: %v", err)
	}
	if err := app.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	conn, err := net.Dial("tcp", (<-addrs).String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cut := make(chan error, 1)
	go func() {
		_, err := io.WriteString(conn, "POST /api/v1/auth/register HTTP/1.1\r\nHost: propman\r\nContent-Length: 1099511627776\r\n\r\n")
		if err == nil {
			// fasthttp reads a streamed body's first 8 KiB before any handler.
			_, err = conn.Write(make([]byte, 8<<10))
		}
		for err == nil {
			_, err = conn.Write([]byte("x"))
			time.Sleep(10 * time.Millisecond)
		}
		cut <- err
	}()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v, want 413", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("answer %v, want 413", res.Status)
	}
	if err := app.Stop(ctx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	select {
	case <-cut:
	case <-time.After(30 * time.Second):
		t.Fatal("the draining connection outlived Stop")
	}
}

// waitRefused waits until addr refuses connections: Stop has closed the listener.
func waitRefused(t *testing.T, addr string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		conn, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			return
		}
		conn.Close()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the listener still accepts connections during Stop")
}

func loadConfig(t *testing.T, overrides map[string]any) *config.Config {
	t.Helper()
	cfg, err := config.Load(config.Options{Overrides: overrides})
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return cfg
}

func TestPlan(t *testing.T) {
	entries := []module.Entry{
		{Name: "base", Status: module.Ready},
		{Name: "user", Status: module.Ready, Depends: []string{"base"}},
		{Name: "later", Status: module.Stub, Prefixes: []string{"/later"}},
	}
	tests := []struct {
		name      string
		overrides map[string]any
		entries   []module.Entry
		want      string // part of the error; "" for none
		enabled   map[string]bool
	}{
		{"all on", nil, entries, "", map[string]bool{"base": true, "user": true, "later": true}},
		{"stub off", map[string]any{"modules.later.enabled": false}, entries, "",
			map[string]bool{"base": true, "user": true, "later": false}},
		{"dependant and dependency off", map[string]any{"modules.base.enabled": false, "modules.user.enabled": false}, entries, "",
			map[string]bool{"base": false, "user": false, "later": true}},
		{"dependency off", map[string]any{"modules.base.enabled": false}, entries,
			"module user needs module base, which is disabled", nil},
		{"unknown module in configuration", map[string]any{"modules.nosuch.enabled": false}, entries,
			"modules.nosuch: there is no such module", nil},
		{"dependency not in catalogue", nil, []module.Entry{{Name: "user", Status: module.Ready, Depends: []string{"base"}}},
			"module user depends on base, which is not in the catalogue", nil},
		{"used module not in catalogue", nil, []module.Entry{{Name: "user", Status: module.Ready, Uses: []string{"base"}}},
			"module user uses base, which is not in the catalogue", nil},
		{"used module off", map[string]any{"modules.base.enabled": false},
			[]module.Entry{{Name: "base", Status: module.Ready}, {Name: "user", Status: module.Ready, Uses: []string{"base"}}}, "",
			map[string]bool{"base": false, "user": true}},
		{"listed twice", nil, []module.Entry{{Name: "base", Status: module.Ready}, {Name: "base", Status: module.Ready}},
			"module base is listed twice", nil},
		{"bad name", nil, []module.Entry{{Name: "Bad-Name", Status: module.Ready}}, "name must be one lower-case word", nil},
		{"stub without prefix", nil, []module.Entry{{Name: "later", Status: module.Stub}}, "a stub needs at least one prefix", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			states, err := boot.Plan(loadConfig(t, tt.overrides), tt.entries)
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Plan error %v, want one containing %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			for _, s := range states {
				if s.Enabled != tt.enabled[s.Name] {
					t.Errorf("%s enabled = %v, want %v", s.Name, s.Enabled, tt.enabled[s.Name])
				}
			}
		})
	}
}

// The real catalogue: switching off a module others need stops the start
// with a message naming both and the key to change.
func TestDependencyOnDisabledModuleStopsTheStart(t *testing.T) {
	var dependant string
	for _, e := range modules.Catalog() {
		if len(e.Depends) > 0 {
			dependant = e.Name + " needs module " + e.Depends[0]
			break
		}
	}
	if dependant == "" {
		t.Skip("no module of the catalogue depends on another yet")
	}
	dep := dependant[strings.LastIndex(dependant, " ")+1:]
	cfg := testkit.Config(t, map[string]any{"modules." + dep + ".enabled": false})
	_, err := boot.New(context.Background(), boot.Options{Config: cfg, Entries: modules.Catalog(), Logger: quiet()})
	if err == nil {
		t.Fatalf("boot.New started with %s disabled", dep)
	}
	for _, want := range []string{dependant + ", which is disabled", "modules." + dep + ".enabled=true"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// A module's constructor error stops the start and closes the database.
func TestModuleErrorStopsTheStart(t *testing.T) {
	broken := module.Entry{Name: "broken", Status: module.Ready, Options: fx.Options(
		fx.Provide(func() (*strings.Builder, error) { return nil, errors.New("cannot build") }),
		fx.Invoke(func(*strings.Builder) {}),
	)}
	cfg := testkit.Config(t, nil)
	_, err := boot.New(context.Background(), boot.Options{Config: cfg, Entries: append(modules.Catalog(), broken), Logger: quiet()})
	if err == nil || !strings.Contains(err.Error(), "cannot build") {
		t.Fatalf("boot.New error %v, want the module's error", err)
	}
}

func TestServiceInfoListsModules(t *testing.T) {
	// assets and compensations print forms: they go off with printforms,
	// the operating-cost statements and the tax year with them; repairs
	// write amounts in the reader's style of the print forms.
	off := map[string]bool{"printforms": true, "notices": true, "assets": true, "compensations": true, "opcosts": true,
		"repairs": true, "taxyear": true}
	app := testkit.Start(t, testkit.WithConfig("modules.printforms.enabled", false), testkit.WithConfig("modules.notices.enabled", false),
		testkit.WithConfig("modules.assets.enabled", false), testkit.WithConfig("modules.compensations.enabled", false),
		testkit.WithConfig("modules.opcosts.enabled", false), testkit.WithConfig("modules.repairs.enabled", false),
		testkit.WithConfig("modules.taxyear.enabled", false))
	var info struct {
		Name          string `json:"name"`
		Version       string `json:"version"`
		Documentation string `json:"documentation"`
		Modules       []struct {
			Name    string `json:"name"`
			Enabled bool   `json:"enabled"`
			Status  string `json:"status"`
		} `json:"modules"`
	}
	app.Get("/api/v1", "").Expect(http.StatusOK).JSON(&info)
	if info.Name != "propman" || info.Version != "1.0.0" || info.Documentation != "/api/v1/doc.json" {
		t.Errorf("info %+v", info)
	}
	catalog := modules.Catalog()
	if len(info.Modules) != len(catalog) {
		t.Fatalf("%d modules listed, want the %d of the catalogue", len(info.Modules), len(catalog))
	}
	for i, m := range info.Modules {
		e := catalog[i]
		if m.Name != e.Name || m.Status != string(e.Status) || m.Enabled != !off[e.Name] {
			t.Errorf("module %d: %+v, want %s %s enabled=%v", i, m, e.Name, e.Status, !off[e.Name])
		}
	}
}

func TestHealth(t *testing.T) {
	app := testkit.Start(t)
	var h struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	res := app.Get("/api/v1/health", "").Expect(http.StatusOK)
	res.JSON(&h)
	if h.Status != "ok" || h.Checks["database"] != "ok" {
		t.Errorf("healthy: %+v", h)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
	if err := app.DB.Close(); err != nil {
		t.Fatal(err)
	}
	h = struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}{}
	app.Get("/api/v1/health", "").Expect(http.StatusServiceUnavailable).JSON(&h)
	if h.Status != "failing" || h.Checks["database"] != "unavailable" {
		t.Errorf("database closed: %+v", h)
	}
}

// probeEntry is a ready module with one route, for switching a real module
// on and off while the catalogue's ready modules may still be empty.
func probeEntry() module.Entry {
	return testkit.Module("probe", `
paths:
  /api/v1/probe:
    get:
      operationId: probe
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: object, required: [ok], properties: {ok: {type: boolean}}}
`, func(api fiber.Router) {
		api.Get("/probe", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"ok": true}) })
	})
}

func docPaths(t *testing.T, app *testkit.App) map[string]any {
	t.Helper()
	var doc struct {
		Paths map[string]any `json:"paths"`
		Stubs []struct {
			Prefixes []string `json:"prefixes"`
		} `json:"x-propman-stubs"`
	}
	app.Get("/api/v1/doc.json", "").Expect(http.StatusOK).JSON(&doc)
	// A stub's prefixes are not operations; doc.json lists them apart.
	for _, s := range doc.Stubs {
		for _, p := range s.Prefixes {
			doc.Paths[p] = "stub"
		}
	}
	return doc.Paths
}

// sampleStubs are two areas not built, as modules/stubs declares them: the
// tests of stub behaviour use them so that they hold whichever real areas
// are still stubs (today none).
func sampleStubs() []module.Entry {
	return []module.Entry{
		{Name: "sample", Summary: "An area not built yet", Status: module.Stub, Prefixes: []string{"/samples", "/sample-events"}},
		{Name: "samplechild", Summary: "An area under a property", Status: module.Stub, Prefixes: []string{"/properties/:propertyId/samples"}},
	}
}

func TestModuleSwitch(t *testing.T) {
	entries := append(append(modules.Catalog(), probeEntry()), sampleStubs()...)
	tests := []struct {
		name     string
		module   string
		path     string
		docPath  string
		onStatus int
	}{
		{"ready module", "probe", "/api/v1/probe", "/api/v1/probe", http.StatusOK},
		{"stub module", "sample", "/api/v1/sample-events", "/api/v1/sample-events", http.StatusNotImplemented},
		{"stub module under a property", "samplechild", "/api/v1/properties/p1/samples/d1",
			"/api/v1/properties/{propertyId}/samples", http.StatusNotImplemented},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			on := testkit.Start(t, testkit.WithEntries(entries))
			on.Get(tt.path, "").Expect(tt.onStatus)
			if _, ok := docPaths(t, on)[tt.docPath]; !ok {
				t.Errorf("enabled: doc.json lacks %s", tt.docPath)
			}

			off := testkit.Start(t, testkit.WithEntries(entries), testkit.WithConfig("modules."+tt.module+".enabled", false))
			var e struct{ Error, Message string }
			off.Get(tt.path, "").Expect(http.StatusNotFound).JSON(&e)
			if e.Error != "not_found" || e.Message == "" {
				t.Errorf("disabled: body %+v, want the not_found error", e)
			}
			if _, ok := docPaths(t, off)[tt.docPath]; ok {
				t.Errorf("disabled: doc.json still has %s", tt.docPath)
			}
		})
	}
}

func TestStubAnswersNotImplemented(t *testing.T) {
	app := testkit.Start(t, testkit.WithEntries(append(modules.Catalog(), sampleStubs()...)))
	for _, req := range []testkit.Request{
		{Method: http.MethodGet, Path: "/api/v1/samples"},
		{Method: http.MethodGet, Path: "/api/v1/samples/42/print"},
		{Method: http.MethodPost, Path: "/api/v1/samples", Body: map[string]any{"x": 1}},
		{Method: http.MethodDelete, Path: "/api/v1/sample-events/7"},
		{Method: http.MethodPut, Path: "/api/v1/properties/abc/samples/1"},
	} {
		res := app.Do(req).Expect(http.StatusNotImplemented)
		var e struct{ Error, Message string }
		res.JSON(&e)
		if e.Error != "not_implemented" || e.Message == "" {
			t.Errorf("%s %s: body %s", req.Method, req.Path, res.Body)
		}
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s %s: Content-Type %q", req.Method, req.Path, ct)
		}
	}
}

func TestRouteTableIsLogged(t *testing.T) {
	var logs strings.Builder
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	cfg := testkit.Config(t, nil)
	app, err := boot.New(context.Background(), boot.Options{Config: cfg, Entries: modules.Catalog(), Logger: log})
	if err != nil {
		t.Fatalf("boot.New: %v", err)
	}
	t.Cleanup(func() { _ = app.Stop(context.Background()) })
	for _, line := range strings.Split(logs.String(), "\n") {
		var rec struct {
			Msg   string   `json:"msg"`
			Table []string `json:"table"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "routes mounted" {
			for _, want := range []string{"GET /api/v1/health", "GET /api/v1/doc.json"} {
				found := false
				for _, r := range rec.Table {
					found = found || r == want
				}
				if !found {
					t.Errorf("route table %v lacks %s", rec.Table, want)
				}
			}
			return
		}
	}
	t.Fatalf("no route table in the log:\n%s", logs.String())
}

// An API-only instance (jobs.work false) starts and serves: it queues jobs
// and runs none, and has no periodic jobs (River refuses them there).
func TestAPIOnlyInstanceStarts(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("jobs.work", false))
	app.Get("/api/v1/health", "").Expect(http.StatusOK)
}
