package testkit

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

var benchRoutes atomic.Int64

// BenchAgainstBare measures GET path (with token, when given) against
// handlers that only write the same bytes, as sub-benchmarks:
//
//   - bare: a plain fiber.New() app, no middleware;
//   - platform: the whole propman app (request id, access log, metrics,
//     recovery, client address, deadline) with the bare handler on a route
//     of its own;
//   - module: the whole propman app with the module's own handler.
//
// Each iteration sends one request to each of the three, in a rotating
// order, and times them apart, so drifting load on a shared machine falls on
// all three alike. It reports ns per request of each and the throughput
// ratios module/bare and module/platform in percent (100 = as fast).
//
// "direct" hands requests straight to Fiber's fasthttp handler (the server's
// own cost); "socket" sends them over a kept-alive loopback connection, as a
// client would, when the app was started WithListener.
func BenchAgainstBare(b *testing.B, app *App, name, path, token string) {
	body := app.Do(Request{Method: http.MethodGet, Path: path, Token: token}).Expect(http.StatusOK).Body
	same := func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
		c.Response().SetBodyRaw(body)
		return nil
	}
	bare := fiber.New(fiber.Config{DisableStartupMessage: true})
	bare.Get(pathOnly(path), same)
	barePath := fmt.Sprintf("/api/v1/bench-bare-%d", benchRoutes.Add(1))
	// Fiber rebuilds its route tree when its handler is next taken.
	app.Fiber.Get(barePath, same)

	b.Run("direct/"+name, func(b *testing.B) {
		paired(b, [3]func(){
			direct(b, bare.Handler(), path, "", body),
			direct(b, app.Fiber.Handler(), barePath, "", body),
			direct(b, app.Fiber.Handler(), path, token, body),
		})
	})
	if app.URL == "" {
		return
	}
	bareURL := listenBare(b, bare)
	b.Run("socket/"+name, func(b *testing.B) {
		paired(b, [3]func(){
			socket(b, bareURL+path, "", body),
			socket(b, app.URL+barePath, "", body),
			socket(b, app.URL+path, token, body),
		})
	})
}

func pathOnly(uri string) string {
	if i := bytes.IndexByte([]byte(uri), '?'); i >= 0 {
		return uri[:i]
	}
	return uri
}

func paired(b *testing.B, do [3]func()) {
	var spent [3]time.Duration
	b.ResetTimer()
	for i := range b.N {
		for k := range 3 {
			j := (i + k) % 3
			start := time.Now()
			do[j]()
			spent[j] += time.Since(start)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(spent[0].Nanoseconds())/n, "bare-ns/req")
	b.ReportMetric(float64(spent[1].Nanoseconds())/n, "platform-ns/req")
	b.ReportMetric(float64(spent[2].Nanoseconds())/n, "module-ns/req")
	b.ReportMetric(100*float64(spent[0])/float64(spent[2]), "module/bare-%")
	b.ReportMetric(100*float64(spent[1])/float64(spent[2]), "module/platform-%")
}

func direct(b *testing.B, h fasthttp.RequestHandler, uri, token string, want []byte) func() {
	var req fasthttp.Request
	req.Header.SetMethod(fasthttp.MethodGet)
	req.SetRequestURI(uri)
	if token != "" {
		req.Header.Set(fiber.HeaderAuthorization, "Bearer "+token)
	}
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, nil, nil)
	h(&ctx)
	if ctx.Response.StatusCode() != fiber.StatusOK || !bytes.Equal(ctx.Response.Body(), want) {
		b.Fatalf("%s: %d, body differs", uri, ctx.Response.StatusCode())
	}
	return func() {
		ctx.Init(&req, nil, nil)
		h(&ctx)
	}
}

func socket(b *testing.B, url, token string, want []byte) func() {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}}
	b.Cleanup(client.CloseIdleConnections)
	buf := bytes.NewBuffer(make([]byte, 0, len(want)+512))
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		b.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	get := func() {
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		buf.Reset()
		if _, err := io.Copy(buf, res.Body); err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d %v", url, res.StatusCode, err)
		}
	}
	get()
	if !bytes.Equal(buf.Bytes(), want) {
		b.Fatalf("%s: body differs", url)
	}
	return get
}

func listenBare(b *testing.B, app *fiber.App) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	b.Cleanup(func() { _ = app.Shutdown() })
	return "http://" + ln.Addr().String()
}
