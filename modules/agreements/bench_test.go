package agreements_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/propman/propman/platform/testkit"
)

// BenchmarkList measures GET /api/v1/agreement-blocks (all blocks, and
// ?country=DE) against handlers that only write the same bytes:
//
//   - bare: a plain fiber.New() app, no middleware;
//   - platform: the whole propman app (its middleware: request id, access
//     log, metrics, recovery, client address, deadline) with the bare
//     handler on a route of its own;
//   - module: the whole propman app, with this module's handler.
//
// Each iteration sends one request to each of the three, in a rotating
// order, and times them apart, so drifting load on a shared machine falls on
// all three alike. The metrics are ns per request of each and the ratios
// module/bare and module/platform as throughput in percent (100 = as fast).
//
// "direct" hands requests straight to Fiber's fasthttp handler, so the
// figures are the server's own cost; "socket" sends them over a kept-alive
// loopback connection with net/http, as a client would.
func BenchmarkList(b *testing.B) {
	app := testkit.Start(b, testkit.WithListener())
	for _, tc := range []struct{ name, path, barePath string }{
		{"all", "/api/v1/agreement-blocks", "/api/v1/bench-bare"},
		{"DE", "/api/v1/agreement-blocks?country=DE", "/api/v1/bench-bare-de"},
	} {
		body := app.Get(tc.path, "").Expect(fiber.StatusOK).Body
		same := func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
			c.Response().SetBodyRaw(body)
			return nil
		}
		bare := fiber.New(fiber.Config{DisableStartupMessage: true})
		bare.Get("/api/v1/agreement-blocks", same)
		bareURL := listen(b, bare)
		// Fiber rebuilds its route tree when its handler is next taken.
		app.Fiber.Get(tc.barePath, same)

		b.Run("direct/"+tc.name, func(b *testing.B) {
			paired(b, [3]func(){
				direct(b, bare.Handler(), tc.path, body),
				direct(b, app.Fiber.Handler(), tc.barePath, body),
				direct(b, app.Fiber.Handler(), tc.path, body),
			})
		})
		b.Run("socket/"+tc.name, func(b *testing.B) {
			paired(b, [3]func(){
				socket(b, bareURL+tc.path, body),
				socket(b, app.URL+tc.barePath, body),
				socket(b, app.URL+tc.path, body),
			})
		})
	}
}

// paired runs bare, platform and module (in that order in do) b.N times
// each, rotating which goes first, and reports their times and ratios.
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

// direct returns a function that sends one GET into h; the first answer is
// checked against want.
func direct(b *testing.B, h fasthttp.RequestHandler, uri string, want []byte) func() {
	var req fasthttp.Request
	req.Header.SetMethod(fasthttp.MethodGet)
	req.SetRequestURI(uri)
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

// socket returns a function that GETs url over one kept-alive connection.
func socket(b *testing.B, url string, want []byte) func() {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}}
	b.Cleanup(client.CloseIdleConnections)
	buf := bytes.NewBuffer(make([]byte, 0, len(want)+512))
	get := func() {
		res, err := client.Get(url)
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

func listen(b *testing.B, app *fiber.App) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	b.Cleanup(func() { _ = app.Shutdown() })
	return "http://" + ln.Addr().String()
}
