package agreements_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/propman/propman/platform/testkit"
)

// BenchmarkList measures GET /api/v1/agreement-blocks (all blocks, and
// ?country=DE) in one run against handlers that only write the same bytes:
//
//   - bare: a plain fiber.New() app, no middleware;
//   - platform: the whole propman app (its middleware: request id, access
//     log, metrics, recovery, client address, deadline) with the bare
//     handler on a route of its own;
//   - module: the whole propman app, with this module's handler.
//
// "direct" sends requests straight into Fiber's fasthttp handler, so the
// figures are the server's own cost; "socket" sends them over a kept-alive
// loopback connection with net/http, as a client would. module/platform is
// what the module adds; module/bare is the ratio the issue asks for.
func BenchmarkList(b *testing.B) {
	app := testkit.Start(b, testkit.WithListener())
	for _, path := range []string{"/api/v1/agreement-blocks", "/api/v1/agreement-blocks?country=DE"} {
		body := app.Get(path, "").Expect(fiber.StatusOK).Body
		bare := fiber.New(fiber.Config{DisableStartupMessage: true})
		same := func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
			c.Response().SetBodyRaw(body)
			return nil
		}
		bare.Get("/api/v1/agreement-blocks", same)
		name, barePath := "all", "/api/v1/bench-bare"
		if path != "/api/v1/agreement-blocks" {
			name, barePath = "DE", "/api/v1/bench-bare-de"
		}
		// Fiber rebuilds its route tree when the handler is next taken.
		app.Fiber.Get(barePath, same)
		servers := []struct {
			name, url, path string
			app             *fiber.App
		}{
			{"bare", listen(b, bare), "/api/v1/agreement-blocks", bare},
			{"platform", app.URL, barePath, app.Fiber},
			{"module", app.URL, path, app.Fiber},
		}
		for _, s := range servers {
			b.Run("direct/"+name+"/"+s.name, func(b *testing.B) {
				serve(b, s.app.Handler(), s.path, body)
			})
		}
		for _, s := range servers {
			b.Run("socket/"+name+"/"+s.name, func(b *testing.B) {
				fetch(b, s.url+s.path, body)
			})
		}
	}
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

func fetch(b *testing.B, url string, want []byte) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true}}
	defer client.CloseIdleConnections()
	get := func() []byte {
		res, err := client.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		got, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d %v", url, res.StatusCode, err)
		}
		return got
	}
	if !bytes.Equal(get(), want) {
		b.Fatalf("%s: body differs", url)
	}
	b.SetBytes(int64(len(want)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		get()
	}
}

func serve(b *testing.B, h fasthttp.RequestHandler, uri string, want []byte) {
	var req fasthttp.Request
	req.Header.SetMethod(fasthttp.MethodGet)
	req.SetRequestURI(uri)
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, nil, nil)
	h(&ctx)
	if ctx.Response.StatusCode() != fiber.StatusOK || !bytes.Equal(ctx.Response.Body(), want) {
		b.Fatalf("%s: %d, body differs", uri, ctx.Response.StatusCode())
	}
	b.SetBytes(int64(len(want)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		ctx.Init(&req, nil, nil)
		h(&ctx)
	}
}
