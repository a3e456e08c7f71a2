// Package metrics exposes propman's Prometheus metrics: HTTP requests per
// route template, the database pool, emails and generated charges.
//
// Each Metrics has its own registry rather than the global one, so any
// number of apps (one per test) can live in one process.
package metrics

import (
	"context"
	"database/sql"
	_ "embed"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/valyala/fasthttp/fasthttpadaptor"

	"github.com/propman/propman/platform/mail"
)

// Path is where the metrics are served, outside the API prefix: scrapers
// expect it there and it is not part of the client API.
const Path = "/metrics"

// Unmatched is the route label of requests no route answered (404, 405),
// so that random paths cannot create new series.
const Unmatched = "unmatched"

// OpenAPI documents Path in doc.json: the document lists every route the
// server answers.
//
//go:embed openapi.yaml
var OpenAPI []byte

// Metrics holds propman's collectors and the registry they live in.
type Metrics struct {
	Registry *prometheus.Registry

	http       *requests
	mailSent   prometheus.Counter
	mailFailed prometheus.Counter
	charges    prometheus.Counter

	routesOnce sync.Once
	routes     map[routeKey]bool
}

// New registers the collectors. db, when not nil, is reported as the
// connection pool (open, in use, idle, waits).
func New(db *sql.DB) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		http:     newRequests(),
		mailSent: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "propman_emails_sent_total",
			Help: "Emails handed to the mail transport successfully.",
		}),
		mailFailed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "propman_emails_failed_total",
			Help: "Emails the mail transport refused or could not take.",
		}),
		charges: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "propman_charges_generated_total",
			Help: "Charges created by the automatic refresh of expenses.",
		}),
	}
	reg.MustRegister(m.http, m.mailSent, m.mailFailed, m.charges,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{Namespace: "propman"}))
	if db != nil {
		reg.MustRegister(collectors.NewDBStatsCollector(db, "main"))
	}
	return m
}

// ChargesGenerated counts n charges created by an automatic refresh. It is
// safe on a nil *Metrics, so callers need no check when metrics are off.
func (m *Metrics) ChargesGenerated(n int) {
	if m == nil || n <= 0 {
		return
	}
	m.charges.Add(float64(n))
}

// Start counts a request in flight (httpserver.Observer); Done takes what
// it returns.
func (m *Metrics) Start() int { return m.http.start() }

// Done records a request whose answer is final (httpserver.Observer: the
// chain calls it after its error handling, so status is what the client
// gets). started is what Start returned.
func (m *Metrics) Done(c *fiber.Ctx, started, status int, elapsed time.Duration) {
	m.http.done(m, c, started, status, elapsed)
}

// methodLabels are the method label values: constants, never the
// request's own bytes, which the next request on the connection overwrites
// while the registry keeps the label ("GETT" series, then a failing scrape).
// Methods outside the list share the last one, so clients cannot mint
// series.
var methodLabels = [...]string{
	fiber.MethodGet, fiber.MethodHead, fiber.MethodPost, fiber.MethodPut, fiber.MethodPatch,
	fiber.MethodDelete, fiber.MethodOptions, fiber.MethodConnect, fiber.MethodTrace, "OTHER",
}

// methodIndex is the index of m's label in methodLabels.
func methodIndex(m string) uint8 {
	for i, known := range methodLabels[:len(methodLabels)-1] {
		if m == known {
			return uint8(i)
		}
	}
	return uint8(len(methodLabels) - 1)
}

// route returns the template of the route that answered (/api/v1/countries/:code),
// or Unmatched. After the chain, c.Route() is the last route that matched,
// which for an unknown path is a middleware; GetRoutes(true) lists the real
// routes only.
func (m *Metrics) route(c *fiber.Ctx) string {
	m.routesOnce.Do(func() {
		m.routes = map[routeKey]bool{}
		for _, r := range c.App().GetRoutes(true) {
			m.routes[routeKey{r.Method, r.Path}] = true
		}
	})
	r := c.Route()
	if m.routes[routeKey{r.Method, r.Path}] {
		return r.Path
	}
	return Unmatched
}

// routeKey is a route of the app. Its strings are the app's own (the
// route table), never a request's bytes.
type routeKey struct{ method, path string }

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() fiber.Handler {
	h := fasthttpadaptor.NewFastHTTPHandler(promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{
		// Compression is for remote scrapers; loopback scrapes and tests read plain text.
		DisableCompression: true,
	}))
	return func(c *fiber.Ctx) error {
		h(c.Context())
		return nil
	}
}

// Mailer wraps next so that every send is counted as sent or failed.
func (m *Metrics) Mailer(next mail.Mailer) mail.Mailer {
	return &countingMailer{next: next, m: m}
}

type countingMailer struct {
	next mail.Mailer
	m    *Metrics
}

func (c *countingMailer) Send(ctx context.Context, msg mail.Message) error {
	err := c.next.Send(ctx, msg)
	if err != nil {
		c.m.mailFailed.Inc()
	} else {
		c.m.mailSent.Inc()
	}
	return err
}
