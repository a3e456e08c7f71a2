package analytics_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/propman/propman/modules/analytics"
	"github.com/propman/propman/platform/testkit"
)

// BenchmarkTrackLoad is the figure: events accepted per second by
// one instance from 50 concurrent keep-alive clients, each sending
// requests of ANALYTICS_LOAD_EVENTS events (default 100, the most a
// request may hold), against the ceiling of bare Fiber answering the same
// 202 to the same requests on the same machine. Each of
// ANALYTICS_LOAD_ROUNDS rounds (default 3) loads both in turns, six slices
// of ANALYTICS_LOAD_SLICE (default 1s) each, so drifting load of a shared
// machine falls on both alike; the metrics are the median round, and the
// lowest and highest. A slice of propman ends when everything it accepted
// is in the database, so the figure is accepted and written events per
// second. 429s count apart (the buffer was full for a moment: the writers
// fell behind). Run it once:
//
//	go test -run '^$' -bench TrackLoad -benchtime 1x ./modules/analytics/
//
// (scripts/load-analytics runs it on both engines).
func BenchmarkTrackLoad(b *testing.B) {
	perRequest := envInt("ANALYTICS_LOAD_EVENTS", 100)
	rounds := envInt("ANALYTICS_LOAD_ROUNDS", 3)
	slice := time.Second
	if v := os.Getenv("ANALYTICS_LOAD_SLICE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatal(err)
		}
		slice = d
	}
	const clients, slicesPerRound = 50, 6
	var buf *analytics.Buffer
	// Under load a batch fills in milliseconds; the flush interval only
	// decides how long the last events of a slice wait, which the default
	// 500 ms would add to every slice.
	opts := []testkit.Option{testkit.WithListener(), testkit.WithPopulate(&buf), testkit.WithConfig("ratelimit.enabled", false),
		testkit.WithConfig("modules.analytics.flush", "20ms")}
	if m := os.Getenv("ANALYTICS_LOAD_PGWRITE"); m != "" {
		opts = append(opts, testkit.WithConfig("modules.analytics.pgwrite", m))
	}
	app := testkit.Start(b, opts...)

	bodies := make([][]byte, clients)
	for i := range bodies {
		list := make([]event, perRequest)
		for j := range list {
			list[j] = event{"name": "page_viewed", "anonymous_id": fmt.Sprintf("visitor-%d-%d", i, j%7),
				"properties": event{"path": fmt.Sprintf("/properties/%d/charges", j), "referrer": "https://propman.example/dashboard",
					"plan": "pro", "units": j, "mobile": j%2 == 0}}
		}
		bodies[i], _ = json.Marshal(map[string]any{"events": list})
	}
	answer := fmt.Appendf(nil, `{"accepted":%d}`, perRequest)
	bare := fiber.New(fiber.Config{DisableStartupMessage: true})
	bare.Post("/api/v1/analytics/track", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		return c.Status(fiber.StatusAccepted).Send(answer)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = bare.Listener(ln) }()
	b.Cleanup(func() { _ = bare.Shutdown() })
	targets := [2]string{"http://" + ln.Addr().String(), app.URL}

	type tally struct{ accepted, full, other atomic.Int64 }
	run := func(base string, d time.Duration, t *tally) {
		var wg sync.WaitGroup
		stop := time.Now().Add(d)
		for i := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				hc := &fasthttp.HostClient{Addr: base[len("http://"):], MaxConns: 1}
				req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
				defer fasthttp.ReleaseRequest(req)
				defer fasthttp.ReleaseResponse(res)
				req.Header.SetMethod(fasthttp.MethodPost)
				req.SetRequestURI(base + "/api/v1/analytics/track")
				req.Header.SetContentType("application/json")
				req.SetBody(bodies[i])
				for time.Now().Before(stop) {
					if err := hc.Do(req, res); err != nil {
						t.other.Add(1)
						continue
					}
					switch res.StatusCode() {
					case fasthttp.StatusAccepted:
						t.accepted.Add(int64(perRequest))
					case fasthttp.StatusTooManyRequests:
						t.full.Add(1)
					default:
						t.other.Add(1)
					}
				}
				hc.CloseIdleConnections()
			}()
		}
		wg.Wait()
	}

	run(targets[1], slice, &tally{}) // warm-up: connections, prepared statements
	var rates [2][]float64
	var full, other int64
	b.ResetTimer()
	start := time.Now()
	for r := range rounds {
		var spent [2]time.Duration
		var t [2]tally
		for s := range slicesPerRound {
			for k := range 2 {
				side := (k + s + r) % 2
				began := time.Now()
				run(targets[side], slice, &t[side])
				if side == 1 {
					// The slice ends when what it accepted is written: the
					// buffer cannot lend the next slice its writers' time,
					// so the figure is what the writers sustain too.
					for buf.Waiting() > 0 {
						time.Sleep(time.Millisecond)
					}
				}
				spent[side] += time.Since(began)
			}
		}
		for side := range 2 {
			rates[side] = append(rates[side], float64(t[side].accepted.Load())/spent[side].Seconds())
		}
		full += t[1].full.Load()
		other += t[1].other.Load() + t[0].other.Load()
	}
	loaded := time.Since(start)
	for buf.Waiting() > 0 {
		time.Sleep(time.Millisecond)
	}
	drained := time.Since(start) - loaded
	b.StopTimer()
	if other > 0 {
		b.Errorf("%d requests failed or had an unexpected status", other)
	}
	med := func(v []float64) (float64, float64, float64) {
		s := slices.Clone(v)
		slices.Sort(s)
		return s[len(s)/2], s[0], s[len(s)-1]
	}
	bm, bl, bh := med(rates[0])
	mm, ml, mh := med(rates[1])
	b.ReportMetric(mm, "events/s")
	b.ReportMetric(ml, "events/s-low")
	b.ReportMetric(mh, "events/s-high")
	b.ReportMetric(bm, "bare-events/s")
	b.ReportMetric(bl, "bare-events/s-low")
	b.ReportMetric(bh, "bare-events/s-high")
	b.ReportMetric(100*mm/bm, "module/bare-%")
	b.ReportMetric(float64(full), "429s")
	b.ReportMetric(float64(drained.Milliseconds()), "drain-ms")
	b.Logf("%s, %d events a request, %d clients: module %v events/s, bare %v events/s, written %d, 429s %d, backlog drained in %v",
		app.Engine, perRequest, clients, roundsOf(rates[1]), roundsOf(rates[0]), buf.Written(), full, drained)
}

// BenchmarkWrite measures the writers' ways to the database without
// HTTP, in events written per second in batches of 2000: on PostgreSQL
// COPY and INSERT ... unnest, in turns within each iteration (the order
// rotating) so a shared machine's drifting load falls on both alike; on
// SQLite the multi-row INSERT in one transaction.
func BenchmarkWrite(b *testing.B) {
	app := testkit.Start(b)
	methods := []string{"insert"}
	if app.Engine == "postgres" {
		methods = []string{"copy", "insert"}
	}
	batch := make([]analytics.Event, 2000)
	now := app.Clock.Now()
	for i := range batch {
		batch[i] = analytics.Event{Name: "page_viewed", OccurredAt: now, ReceivedAt: now, AnonymousID: "visitor-" + strconv.Itoa(i%50),
			Properties: []byte(`{"mobile":true,"path":"/properties/1/charges","plan":"pro","referrer":"https://propman.example/dashboard","units":7}`)}
	}
	stores := make([]*analytics.Store, len(methods))
	for i, m := range methods {
		stores[i] = analytics.NewStore(app.DB, analytics.Config{PGWrite: m})
	}
	spent := make([]time.Duration, len(methods))
	n := 0
	for b.Loop() {
		for k := range stores {
			j := (n + k) % len(stores)
			start := time.Now()
			if err := stores[j].Write(context.Background(), batch); err != nil {
				b.Fatal(err)
			}
			spent[j] += time.Since(start)
		}
		n++
	}
	for i, m := range methods {
		b.ReportMetric(float64(n*len(batch))/spent[i].Seconds(), app.Engine+"-"+m+"-events/s")
	}
	if len(methods) == 2 {
		b.ReportMetric(100*spent[1].Seconds()/spent[0].Seconds(), "copy/insert-speed-%")
	}
}

func roundsOf(v []float64) []int {
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(x)
	}
	return out
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
