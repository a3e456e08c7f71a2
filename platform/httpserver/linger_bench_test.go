package httpserver_test

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/httpserver"
)

// The lingering listener against the bare one, on normal requests: a
// propman app (httpserver.New) answering GET /ping, served twice, once on a
// net.Listener and once on it wrapped by httpserver.Linger. Each iteration
// sends one request to each, in alternating order, and times them apart,
// so drifting load on a shared machine falls on both alike.
//
//	go test -run '^$' -bench LingerListener -benchtime 20000x ./platform/httpserver/
func BenchmarkLingerListener(b *testing.B) {
	for _, mode := range []struct {
		name      string
		keepAlive bool
	}{{"keepalive", true}, {"new-connection", false}} {
		b.Run(mode.name, func(b *testing.B) {
			bare := pingServer(b, false)
			linger := pingServer(b, true)
			client := &http.Client{Transport: &http.Transport{DisableKeepAlives: !mode.keepAlive, MaxIdleConnsPerHost: 2}}
			defer client.CloseIdleConnections()
			get := func(url string) {
				res, err := client.Get(url)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("%s: %d", url, res.StatusCode)
				}
			}
			get(bare)
			get(linger)
			var spent [2]time.Duration
			urls := [2]string{bare, linger}
			b.ResetTimer()
			for i := range b.N {
				for k := range 2 {
					j := (i + k) % 2
					start := time.Now()
					get(urls[j])
					spent[j] += time.Since(start)
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(spent[0].Nanoseconds())/n, "bare-ns/req")
			b.ReportMetric(float64(spent[1].Nanoseconds())/n, "linger-ns/req")
			b.ReportMetric(100*float64(spent[0])/float64(spent[1]), "linger/bare-%")
		})
	}
}

// pingServer serves a propman app with GET /ping on 127.0.0.1, on the
// lingering listener or on the bare one, and returns the route's URL.
func pingServer(b *testing.B, linger bool) string {
	b.Helper()
	cfg, err := config.Load(config.Options{})
	if err != nil {
		b.Fatal(err)
	}
	app, err := httpserver.New(cfg.HTTP, cfg.Database.Timeout, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	app.Get("/ping", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"pong": true}) })
	var ln net.Listener
	if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		b.Fatal(err)
	}
	if linger {
		ln = httpserver.Linger(ln, cfg.HTTP)
	}
	go func() { _ = app.Listener(ln) }()
	b.Cleanup(func() { _ = app.Shutdown() })
	return "http://" + ln.Addr().String() + "/ping"
}
