package metrics_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/metrics"
	"github.com/propman/propman/platform/testkit"
)

// scrape reads /metrics and parses it as the Prometheus text format.
func scrape(t *testing.T, app *testkit.App) map[string]*dto.MetricFamily {
	t.Helper()
	res := app.Get(metrics.Path, "").Expect(http.StatusOK)
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("Content-Type = %q, want text/plain", ct)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatalf("the body is not the Prometheus text format: %v\n%s", err, res.Body)
	}
	return families
}

// value returns the value of the series of family name whose labels include
// want, or 0 when there is no such series.
func value(t *testing.T, families map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	t.Helper()
	f, ok := families[name]
	if !ok {
		return 0
	}
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			if labels[k] != v {
				match = false
			}
		}
		if !match {
			continue
		}
		switch f.GetType() {
		case dto.MetricType_COUNTER:
			return m.GetCounter().GetValue()
		case dto.MetricType_GAUGE:
			return m.GetGauge().GetValue()
		case dto.MetricType_HISTOGRAM:
			return float64(m.GetHistogram().GetSampleCount())
		}
	}
	return 0
}

func TestMetricsFormatAndFamilies(t *testing.T) {
	app := testkit.Start(t)
	// Series of a vector exist once a request has been measured.
	app.Get("/api/v1/health", "").Expect(http.StatusOK)
	families := scrape(t, app)
	for _, name := range []string{
		"propman_http_requests_total", "propman_http_request_duration_seconds",
		"propman_http_requests_in_flight", "propman_emails_sent_total", "propman_emails_failed_total",
		"propman_charges_generated_total", "go_sql_open_connections", "go_sql_in_use_connections",
		"go_sql_idle_connections", "go_sql_wait_count_total", "go_sql_wait_duration_seconds_total",
		"go_goroutines",
	} {
		if _, ok := families[name]; !ok {
			t.Errorf("family %s is missing", name)
		}
	}
	if got := families["propman_http_request_duration_seconds"].GetType(); got != dto.MetricType_HISTOGRAM {
		t.Errorf("propman_http_request_duration_seconds is a %v, want a histogram", got)
	}
	// The pool answered the start-up ping, so it has opened a connection.
	if got := value(t, families, "go_sql_open_connections", map[string]string{"db_name": "main"}); got < 1 {
		t.Errorf("go_sql_open_connections = %v, want at least 1", got)
	}
}

func TestMetricsCountRequestsByRouteTemplate(t *testing.T) {
	app := testkit.Start(t)
	route := map[string]string{"route": "/api/v1/health", "method": "GET", "status": "200"}
	before := value(t, scrape(t, app), "propman_http_requests_total", route)
	for range 3 {
		app.Get("/api/v1/health", "").Expect(http.StatusOK)
	}
	after := scrape(t, app)
	if got := value(t, after, "propman_http_requests_total", route); got != before+3 {
		t.Errorf("requests_total%v = %v, want %v", route, got, before+3)
	}
	if got := value(t, after, "propman_http_request_duration_seconds", route); got != before+3 {
		t.Errorf("request_duration_seconds%v count = %v, want %v", route, got, before+3)
	}
}

// One route's answers with different statuses are counted apart, however
// they interleave.
func TestMetricsCountEachStatusOfARoute(t *testing.T) {
	app := testkit.Start(t)
	ok := map[string]string{"route": "/api/v1/countries/:code", "method": "GET", "status": "200"}
	missing := map[string]string{"route": "/api/v1/countries/:code", "method": "GET", "status": "404"}
	for _, code := range []string{"DE", "XX", "FR", "YY", "ZZ", "DE"} {
		app.Get("/api/v1/countries/"+code, "")
	}
	families := scrape(t, app)
	if got := value(t, families, "propman_http_requests_total", ok); got != 3 {
		t.Errorf("requests_total%v = %v, want 3", ok, got)
	}
	if got := value(t, families, "propman_http_requests_total", missing); got != 3 {
		t.Errorf("requests_total%v = %v, want 3", missing, got)
	}
}

// Unknown paths share one series, so a client cannot grow the number of
// series by inventing paths.
func TestMetricsUnknownPathsShareOneSeries(t *testing.T) {
	app := testkit.Start(t)
	app.Get("/api/v1/no-such-thing-1", "").Expect(http.StatusNotFound)
	app.Get("/api/v1/no-such-thing-2", "").Expect(http.StatusNotFound)
	app.Get("/also/not/here", "").Expect(http.StatusNotFound)
	families := scrape(t, app)
	unmatched := map[string]string{"route": metrics.Unmatched, "method": "GET", "status": "404"}
	if got := value(t, families, "propman_http_requests_total", unmatched); got != 3 {
		t.Errorf("requests_total%v = %v, want 3", unmatched, got)
	}
	for _, m := range families["propman_http_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "route" && strings.Contains(l.GetValue(), "no-such-thing") {
				t.Errorf("a raw path became a label: %s", l.GetValue())
			}
		}
	}
}

func TestMetricsOffGives404AndNoDocumentation(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("metrics.enabled", false))
	res := app.Get(metrics.Path, "").Expect(http.StatusNotFound)
	if !bytes.Contains(res.Body, []byte(`"not_found"`)) {
		t.Errorf("body = %s, want the standard not_found error", res.Body)
	}
	for _, op := range app.Doc.Operations() {
		if strings.HasSuffix(op, " "+metrics.Path) {
			t.Errorf("doc.json documents %s while metrics are off", op)
		}
	}
}

func TestMailerCountsSentAndFailed(t *testing.T) {
	m := metrics.New(nil)
	catcher := &mail.Catcher{}
	mailer := m.Mailer(catcher)
	ctx := context.Background()
	if err := mailer.Send(ctx, mail.Message{To: "a@example.com"}); err != nil {
		t.Fatal(err)
	}
	catcher.Fail(errors.New("smtp down"))
	if err := mailer.Send(ctx, mail.Message{To: "b@example.com"}); err == nil {
		t.Fatal("the failure of the inner mailer was swallowed")
	}
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*dto.MetricFamily{}
	for _, f := range families {
		byName[f.GetName()] = f
	}
	if got := value(t, byName, "propman_emails_sent_total", nil); got != 1 {
		t.Errorf("emails_sent_total = %v, want 1", got)
	}
	if got := value(t, byName, "propman_emails_failed_total", nil); got != 1 {
		t.Errorf("emails_failed_total = %v, want 1", got)
	}
	if n := len(catcher.Messages()); n != 1 {
		t.Errorf("the catcher holds %d messages, want 1", n)
	}
}

func TestChargesGenerated(t *testing.T) {
	m := metrics.New(nil)
	m.ChargesGenerated(3)
	m.ChargesGenerated(0)
	m.ChargesGenerated(-2) // nonsense is ignored rather than panicking the counter
	var off *metrics.Metrics
	off.ChargesGenerated(5) // metrics switched off: a nil *Metrics does nothing
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*dto.MetricFamily{}
	for _, f := range families {
		byName[f.GetName()] = f
	}
	if got := value(t, byName, "propman_charges_generated_total", nil); got != 3 {
		t.Errorf("charges_generated_total = %v, want 3", got)
	}
}
