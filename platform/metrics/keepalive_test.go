package metrics_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// TestMetricsAfterMixedKeepAliveTraffic: clients on kept-alive connections
// send a mix of methods and routes, one after another on each connection.
// A label kept from a request's own bytes would read "GETT" once the next
// request overwrote them, and the registry would then refuse every scrape.
// Afterwards /metrics must answer, parse, and count exactly what was sent.
func TestMetricsAfterMixedKeepAliveTraffic(t *testing.T) {
	app := testkit.Start(t, testkit.WithListener())
	user := accountstest.NewUser(t, app)
	type call struct {
		method, path, route string
		body                any
		status              int
	}
	calls := []call{
		{http.MethodPost, "/api/v1/translations", "/api/v1/translations", map[string]any{"locale": "de", "keys": []string{"a"}}, 200},
		{http.MethodGet, "/api/v1/countries/DE", "/api/v1/countries/:code", nil, 200},
		{http.MethodPut, "/api/v1/user/profile", "/api/v1/user/profile", map[string]any{"locale": "fr"}, 200},
		{http.MethodGet, "/api/v1/health", "/api/v1/health", nil, 200},
		{http.MethodDelete, "/api/v1/properties/not-a-uuid", "/api/v1/properties/:propertyId", nil, 404},
		{http.MethodGet, "/api/v1/languages/de", "/api/v1/languages/:code", nil, 200},
		{http.MethodPost, "/api/v1/properties", "/api/v1/properties", map[string]any{"name": ""}, 400},
		{http.MethodGet, "/api/v1/user/roles", "/api/v1/user/roles", nil, 200},
	}
	const clients, rounds = 8, 25
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := testkit.KeepAliveClient(t)
			for r := range rounds {
				for k := range calls {
					c := calls[(i+r+k)%len(calls)]
					res := app.Do(testkit.Request{Method: c.method, Path: c.path, Body: c.body, Token: user.Token, Client: client})
					if res.Status != c.status {
						t.Errorf("%s %s: %d, want %d: %s", c.method, c.path, res.Status, c.status, res.Body)
					}
				}
			}
		}()
	}
	wg.Wait()
	families := scrape(t, app) // 200 and the text format, or the test fails
	for _, c := range calls {
		want := float64(clients * rounds)
		labels := map[string]string{"route": c.route, "method": c.method, "status": fmt.Sprint(c.status)}
		if got := value(t, families, "propman_http_requests_total", labels); got != want {
			t.Errorf("propman_http_requests_total%v = %v, want %v", labels, got, want)
		}
		// The shards of a series add up to the same count in the
		// histogram, whose buckets never exceed it.
		if got := value(t, families, "propman_http_request_duration_seconds", labels); got != want {
			t.Errorf("propman_http_request_duration_seconds%v count = %v, want %v", labels, got, want)
		}
	}
	for _, m := range families["propman_http_request_duration_seconds"].GetMetric() {
		h := m.GetHistogram()
		last := uint64(0)
		for _, b := range h.GetBucket() {
			if b.GetCumulativeCount() < last || b.GetCumulativeCount() > h.GetSampleCount() {
				t.Errorf("%v: bucket le=%v holds %d after %d, of %d", m.GetLabel(), b.GetUpperBound(), b.GetCumulativeCount(), last, h.GetSampleCount())
			}
			last = b.GetCumulativeCount()
		}
		if h.GetSampleCount() > 0 && h.GetSampleSum() <= 0 {
			t.Errorf("%v: %d requests took %v s in all", m.GetLabel(), h.GetSampleCount(), h.GetSampleSum())
		}
	}
	// Only the scrape itself is in flight.
	if got := value(t, families, "propman_http_requests_in_flight", nil); got != 1 {
		t.Errorf("propman_http_requests_in_flight = %v, want 1 (the scrape)", got)
	}
	for _, m := range families["propman_http_requests_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "method" {
				switch l.GetValue() {
				case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete:
				default:
					t.Errorf("a series with method %q", l.GetValue())
				}
			}
		}
	}
}
