// Package tracing records OpenTelemetry traces of requests and their
// database queries and exports them over OTLP/HTTP.
//
// It exists only when tracing.endpoint is set: otherwise boot builds no
// Provider, installs no middleware and no query hook, and nothing is sent.
//
// Each Provider has its own TracerProvider rather than the global one, so
// any number of apps (one per test) can live in one process.
package tracing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/httpserver"
)

// ScopeName names the instrumentation scope of propman's spans.
const ScopeName = "github.com/propman/propman/platform/tracing"

// Provider owns the TracerProvider of one app and the span exporter behind it.
type Provider struct {
	tp     *sdktrace.TracerProvider
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
}

// New builds the provider for cfg: a batch span processor sending to
// cfg.Endpoint + "/v1/traces", sampling cfg.Ratio of new traces and
// following the decision of a sampled incoming traceparent. Nothing is sent
// until the first batch is full or due.
func New(cfg config.Tracing) (*Provider, error) {
	exp, err := otlptracehttp.New(context.Background(),
		otlptracehttp.WithEndpointURL(strings.TrimRight(cfg.Endpoint, "/")+"/v1/traces"))
	if err != nil {
		return nil, fmt.Errorf("tracing.endpoint: %w", err)
	}
	res := resource.NewWithAttributes(semconv.SchemaURL, semconv.ServiceName(cfg.Service))
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(cfg.Ratio))),
	)
	return &Provider{
		tp:     tp,
		tracer: tp.Tracer(ScopeName),
		prop:   propagation.TraceContext{},
	}, nil
}

// ForceFlush exports every finished span now; tests call it before reading
// what the collector received.
func (p *Provider) ForceFlush(ctx context.Context) error { return p.tp.ForceFlush(ctx) }

// Shutdown flushes the spans still buffered and stops the exporter. The app
// calls it when it stops.
func (p *Provider) Shutdown(ctx context.Context) error { return p.tp.Shutdown(ctx) }

// Middleware starts the server span of every request and puts it in
// c.UserContext(), so the spans of the request's queries are its children.
// It must run before any handler asks for the request's context
// (httpserver.Context; httpserver.New's outer handlers do), which keeps the
// span in the deadline's context.
//
// The span is named by the route template (GET /api/v1/countries/:code) and
// records the method, the route and the final status; not the path, the
// query string, headers or bodies, which may hold personal data.
func (p *Provider) Middleware() fiber.Handler {
	routes := newRouteSet()
	return func(c *fiber.Ctx) error {
		method := strings.Clone(c.Method())
		parent := p.prop.Extract(c.UserContext(), headerCarrier{c})
		ctx, span := p.tracer.Start(parent, method,
			trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(semconv.HTTPRequestMethodKey.String(method)))
		defer span.End()
		c.SetUserContext(ctx)
		err := c.Next()
		status := c.Response().StatusCode()
		if err != nil {
			// An error still unhandled here becomes a response later, through
			// the error handler: classify it the way that handler will.
			status = httpserver.Classify(err).Status
		}
		if route, ok := routes.template(c); ok {
			span.SetName(method + " " + route)
			span.SetAttributes(semconv.HTTPRoute(route))
		}
		span.SetAttributes(semconv.HTTPResponseStatusCodeKey.Int(status))
		if status >= 500 {
			span.SetStatus(codes.Error, "")
		}
		return err
	}
}

// headerCarrier reads the W3C trace context headers of a request.
type headerCarrier struct{ c *fiber.Ctx }

func (h headerCarrier) Get(key string) string { return string(h.c.Request().Header.Peek(key)) }

func (h headerCarrier) Set(string, string) {}

func (h headerCarrier) Keys() []string {
	var keys []string
	h.c.Request().Header.VisitAll(func(k, _ []byte) { keys = append(keys, string(k)) })
	return keys
}

// QueryHook returns a bun.QueryHook that starts a client span for every
// query run within a traced request: db.system.name and the operation
// (SELECT, INSERT, ...) and table, never the query text or its arguments,
// which may hold personal data. Queries outside a request (background jobs,
// migrations) are not traced.
func (p *Provider) QueryHook(db *bun.DB) bun.QueryHook {
	system := semconv.DBSystemNameSQLite
	if db.Dialect().Name().String() == "pg" {
		system = semconv.DBSystemNamePostgreSQL
	}
	return &queryHook{tracer: p.tracer, system: system}
}

type queryHook struct {
	tracer trace.Tracer
	system attribute.KeyValue
}

type querySpanKey struct{}

func (h *queryHook) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return ctx
	}
	op := e.Operation()
	attrs := []attribute.KeyValue{
		h.system,
		attribute.String("db.system", h.system.Value.AsString()),
		semconv.DBOperationName(op),
	}
	name := op
	if t, ok := e.IQuery.(interface{ GetTableName() string }); ok {
		if table := strings.Trim(t.GetTableName(), `"`+"`"); table != "" {
			attrs = append(attrs, semconv.DBCollectionName(table))
			name += " " + table
		}
	}
	ctx, span := h.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return context.WithValue(ctx, querySpanKey{}, span)
}

func (h *queryHook) AfterQuery(ctx context.Context, e *bun.QueryEvent) {
	span, ok := ctx.Value(querySpanKey{}).(trace.Span)
	if !ok {
		return
	}
	if e.Err != nil && !isNoRows(e.Err) {
		// The error's text may quote values; its kind is enough.
		span.SetStatus(codes.Error, "query failed")
	}
	span.End()
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// routeSet tells the routes the app serves from the middleware that ran last
// for an unknown path: after the chain, c.Route() is the last route that
// matched, which for an unknown path is a middleware.
type routeSet struct {
	once   sync.Once
	routes map[string]bool
}

func newRouteSet() *routeSet { return &routeSet{} }

// template returns the template of the route that answered
// (/api/v1/countries/:code), or false for a 404 or 405.
func (s *routeSet) template(c *fiber.Ctx) (string, bool) {
	s.once.Do(func() {
		s.routes = map[string]bool{}
		for _, r := range c.App().GetRoutes(true) {
			s.routes[r.Method+" "+r.Path] = true
		}
	})
	r := c.Route()
	if s.routes[r.Method+" "+r.Path] {
		return r.Path, true
	}
	return "", false
}
