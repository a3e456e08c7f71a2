package tracing_test

import (
	"compress/gzip"
	"context"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel/trace"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"go.uber.org/fx"
	"google.golang.org/protobuf/proto"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

// span is what the collector received of one span.
type span struct {
	Name     string
	Kind     tracepb.Span_SpanKind
	TraceID  string
	SpanID   string
	ParentID string
	Status   tracepb.Status_StatusCode
	Attrs    map[string]string
	Service  string
}

// collector is an in-process OTLP/HTTP receiver: it accepts POST /v1/traces
// and keeps every span it decodes.
type collector struct {
	URL string

	mu       sync.Mutex
	requests int
	spans    []span
}

func newCollector(t *testing.T) *collector {
	t.Helper()
	c := &collector{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.requests++
		c.mu.Unlock()
		if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" {
			t.Errorf("collector: %s %s, want POST /v1/traces", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			gz, err := gzip.NewReader(r.Body)
			if err != nil {
				t.Errorf("collector: gzip: %v", err)
				return
			}
			body = gz
		}
		raw, err := io.ReadAll(body)
		if err != nil {
			t.Errorf("collector: read: %v", err)
			return
		}
		var req collectortrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(raw, &req); err != nil {
			t.Errorf("collector: decode: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.add(&req)
		out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	c.URL = srv.URL
	return c
}

func (c *collector) add(req *collectortrace.ExportTraceServiceRequest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		service := ""
		for _, a := range rs.GetResource().GetAttributes() {
			if a.GetKey() == "service.name" {
				service = a.GetValue().GetStringValue()
			}
		}
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				attrs := map[string]string{}
				for _, a := range s.GetAttributes() {
					v := a.GetValue()
					switch {
					case v.GetStringValue() != "":
						attrs[a.GetKey()] = v.GetStringValue()
					default:
						attrs[a.GetKey()] = strings.TrimSpace(strings.Trim(v.String(), "{}"))
					}
				}
				c.spans = append(c.spans, span{
					Name: s.GetName(), Kind: s.GetKind(), Status: s.GetStatus().GetCode(),
					TraceID: hex.EncodeToString(s.GetTraceId()), SpanID: hex.EncodeToString(s.GetSpanId()),
					ParentID: hex.EncodeToString(s.GetParentSpanId()), Attrs: attrs, Service: service,
				})
			}
		}
	}
}

func (c *collector) all() ([]span, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]span(nil), c.spans...), c.requests
}

func (c *collector) named(t *testing.T, name string) span {
	t.Helper()
	spans, _ := c.all()
	for _, s := range spans {
		if s.Name == name {
			return s
		}
	}
	var names []string
	for _, s := range spans {
		names = append(names, s.Name)
	}
	t.Fatalf("no span named %q; got %q", name, names)
	return span{}
}

func flush(t *testing.T, app *testkit.App) {
	t.Helper()
	if app.Tracing == nil {
		t.Fatal("tracing.endpoint is set but the app has no trace provider")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := app.Tracing.ForceFlush(ctx); err != nil {
		t.Fatalf("ForceFlush: %v", err)
	}
}

// ctxEntry is a test module whose route reports what its context carries:
// the request deadline and the span of the request.
func ctxEntry() module.Entry {
	return testkit.Module("ctxtest", `
paths:
  /api/v1/ctxtest:
    get:
      operationId: ctxtest
      responses:
        "200":
          description: what the context carries
          content:
            application/json:
              schema:
                type: object
                required: [deadline, trace]
                properties: {deadline: {type: boolean}, trace: {type: string}}
`, func(api fiber.Router) {
		api.Get("/ctxtest", func(c *fiber.Ctx) error {
			ctx := httpserver.Context(c)
			_, deadline := ctx.Deadline()
			sc := trace.SpanContextFromContext(ctx)
			id := ""
			if sc.IsValid() {
				id = sc.TraceID().String()
			}
			return c.JSON(fiber.Map{"deadline": deadline, "trace": id})
		})
	})
}

type ctxAnswer struct {
	Deadline bool   `json:"deadline"`
	Trace    string `json:"trace"`
}

// A request gives a server span named by its route template, and the
// queries of a request are client spans under it, without their text or
// arguments.
func TestRequestAndQuerySpans(t *testing.T) {
	col := newCollector(t)
	app := testkit.Start(t, testkit.WithConfig("tracing.endpoint", col.URL), testkit.WithConfig("tracing.service", "propman-test"))
	user := accountstest.NewUser(t, app)

	app.Get("/api/v1/countries/de", "").Expect(http.StatusOK)
	app.Get("/api/v1/auth/me", user.Token).Expect(http.StatusOK)
	app.Get("/api/v1/no-such-route", "").Expect(http.StatusNotFound)
	flush(t, app)

	country := col.named(t, "GET /api/v1/countries/:code")
	if country.Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("country span kind %v, want server", country.Kind)
	}
	if country.Attrs["http.route"] != "/api/v1/countries/:code" || country.Attrs["http.request.method"] != "GET" ||
		!strings.Contains(country.Attrs["http.response.status_code"], "200") {
		t.Errorf("country span attributes %v", country.Attrs)
	}
	if country.Service != "propman-test" {
		t.Errorf("service.name %q, want propman-test", country.Service)
	}
	if country.ParentID != "" {
		t.Errorf("a request without traceparent has a parent span: %s", country.ParentID)
	}

	me := col.named(t, "GET /api/v1/auth/me")
	spans, _ := col.all()
	var queries []span
	for _, s := range spans {
		if s.TraceID == me.TraceID && s.ParentID == me.SpanID {
			queries = append(queries, s)
		}
	}
	if len(queries) == 0 {
		t.Fatalf("no query span under %s (trace %s); spans: %+v", me.Name, me.TraceID, spans)
	}
	for _, q := range queries {
		t.Logf("query span under %s: %s %v", me.Name, q.Name, q.Attrs)
	}
	wantSystem := map[string]string{"sqlite": "sqlite", "postgres": "postgresql"}[app.Engine]
	for _, q := range queries {
		if q.Kind != tracepb.Span_SPAN_KIND_CLIENT {
			t.Errorf("query span %q kind %v, want client", q.Name, q.Kind)
		}
		if q.Attrs["db.system.name"] != wantSystem || q.Attrs["db.system"] != wantSystem {
			t.Errorf("query span %q: db.system(.name) %v, want %s", q.Name, q.Attrs, wantSystem)
		}
		if q.Attrs["db.operation.name"] == "" || !strings.HasPrefix(q.Name, q.Attrs["db.operation.name"]) {
			t.Errorf("query span %q: operation %q", q.Name, q.Attrs["db.operation.name"])
		}
		for k, v := range q.Attrs {
			if strings.HasPrefix(k, "db.query") || strings.Contains(v, user.Email) || strings.Contains(v, "WHERE") {
				t.Errorf("query span %q records the query or its arguments: %s=%q", q.Name, k, v)
			}
		}
	}

	unmatched := col.named(t, "GET")
	if _, ok := unmatched.Attrs["http.route"]; ok || !strings.Contains(unmatched.Attrs["http.response.status_code"], "404") {
		t.Errorf("unmatched request span attributes %v", unmatched.Attrs)
	}
	for _, s := range spans {
		for _, v := range s.Attrs {
			if strings.Contains(v, "no-such-route") || strings.Contains(v, user.Token) {
				t.Errorf("span %q records the path or a token: %q", s.Name, v)
			}
		}
	}
}

// The span survives the request deadline: a handler's context has both, and
// an incoming W3C traceparent makes the request part of the caller's trace.
func TestSpanAndDeadlineInUserContext(t *testing.T) {
	col := newCollector(t)
	app := testkit.Start(t, testkit.WithConfig("tracing.endpoint", col.URL),
		testkit.WithEntries(append(modules.Catalog(), ctxEntry())))

	var got ctxAnswer
	app.Get("/api/v1/ctxtest", "").Expect(http.StatusOK).JSON(&got)
	if !got.Deadline || got.Trace == "" {
		t.Errorf("handler context: deadline %v, trace %q; want both", got.Deadline, got.Trace)
	}

	const traceID, parentID = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	app.Do(testkit.Request{Method: http.MethodGet, Path: "/api/v1/ctxtest",
		Headers: map[string]string{"traceparent": "00-" + traceID + "-" + parentID + "-01"}}).
		Expect(http.StatusOK).JSON(&got)
	if got.Trace != traceID {
		t.Errorf("trace %q, want the caller's %s", got.Trace, traceID)
	}
	flush(t, app)
	spans, _ := col.all()
	found := false
	for _, s := range spans {
		if s.Name == "GET /api/v1/ctxtest" && s.TraceID == traceID {
			found = true
			if s.ParentID != parentID {
				t.Errorf("parent %s, want the caller's span %s", s.ParentID, parentID)
			}
		}
	}
	if !found {
		t.Errorf("no span in the caller's trace; spans: %+v", spans)
	}
}

// Stopping the app flushes the spans still buffered.
func TestStopFlushes(t *testing.T) {
	col := newCollector(t)
	cfg := testkit.Config(t, map[string]any{"tracing.endpoint": col.URL})
	var app *fiber.App
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fxApp, err := boot.New(ctx, boot.Options{Config: cfg, Entries: modules.Catalog(),
		Extra: []fx.Option{fx.Populate(&app)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := fxApp.Start(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := app.Test(httptest.NewRequest(http.MethodGet, "/api/v1/countries/fr", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if err := fxApp.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	col.named(t, "GET /api/v1/countries/:code")
}

// With tracing.endpoint empty nothing is traced or sent, even with the
// standard OpenTelemetry variables pointing at a collector.
func TestOffByDefault(t *testing.T) {
	col := newCollector(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", col.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", col.URL+"/v1/traces")
	app := testkit.Start(t, testkit.WithEntries(append(modules.Catalog(), ctxEntry())))
	if app.Tracing != nil {
		t.Fatal("a trace provider exists with tracing.endpoint empty")
	}
	user := accountstest.NewUser(t, app)
	var got ctxAnswer
	app.Get("/api/v1/ctxtest", "").Expect(http.StatusOK).JSON(&got)
	if !got.Deadline || got.Trace != "" {
		t.Errorf("handler context: deadline %v, trace %q; want a deadline and no span", got.Deadline, got.Trace)
	}
	app.Get("/api/v1/countries/de", "").Expect(http.StatusOK)
	app.Get("/api/v1/auth/me", user.Token).Expect(http.StatusOK)
	if _, n := col.all(); n != 0 {
		t.Errorf("the collector received %d requests with tracing off", n)
	}
}
