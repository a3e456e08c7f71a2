package httpserver

import (
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"
	"github.com/valyala/fasthttp"

	"github.com/propman/propman/platform/logbuf"
	"github.com/propman/propman/platform/metrics"
)

// BenchmarkMiddleware measures what each part of the middleware every
// request pays for adds, one at a time: the chain of New (see chain) is
// built up part by part in front of a handler sending 40 bytes of JSON, and
// each step is a sub-benchmark run in process (fasthttp's handler called
// directly, no socket), so the difference between two steps is the cost of
// the part added. The access log writes to /dev/null through a real file,
// as to a log file: through slog directly (3), through slog over logbuf (3b,
// how propman serve wrote it before the line was formatted by hand), and as
// propman serve writes it now (3c: the line formatted by hand into logbuf,
// see logbuf.Direct), which the later steps keep. Metrics (1c) are an
// Observer of the chain, as boot sets them when metrics.enabled. CORS, a handler of its
// own after the chain, runs only when origins are configured (8).
//
//	go test -run '^$' -bench Middleware -benchtime 200000x ./platform/httpserver/
func BenchmarkMiddleware(b *testing.B) { benchmarkMiddleware(b, false) }

// BenchmarkMiddlewareParallel is BenchmarkMiddleware with every CPU sending
// requests (b.RunParallel); ns/op is wall time per request of all of them.
func BenchmarkMiddlewareParallel(b *testing.B) { benchmarkMiddleware(b, true) }

func benchmarkMiddleware(b *testing.B, parallel bool) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	infoLog := slog.New(slog.NewTextHandler(devNull, &slog.HandlerOptions{Level: slog.LevelInfo}))
	warnLog := slog.New(slog.NewTextHandler(devNull, &slog.HandlerOptions{Level: slog.LevelWarn}))
	// The service's own log: info lines gathered by logbuf before the write.
	logBuf := logbuf.New(devNull)
	defer logBuf.Close()
	bufferedLog := slog.New(logBuf.Handler(slog.NewTextHandler(logBuf, &slog.HandlerOptions{Level: slog.LevelInfo})))
	// As boot.BufferedLogger builds it.
	directLog := slog.New(logBuf.Handler(logbuf.NewHandler(logBuf, false, &slog.HandlerOptions{Level: slog.LevelInfo})))
	steps := []struct {
		name string
		add  func(*chain)
	}{
		{"1-requestid", func(ch *chain) { ch.requestID = true }},
		{"1b-nosniff", func(ch *chain) { ch.noSniff = true }},
		{"1c-metrics", func(ch *chain) { ch.observer = metrics.New(nil) }},
		{"2-accesslog-warn", func(ch *chain) { ch.log = warnLog }},
		{"3-accesslog-info", func(ch *chain) { ch.log = infoLog }},
		{"3b-accesslog-info-logbuf", func(ch *chain) { ch.log = bufferedLog }},
		{"3c-accesslog-info-direct", func(ch *chain) { ch.log, ch.direct = directLog, directLog.Handler().(logbuf.Direct) }},
		{"4-recover", func(ch *chain) { ch.recover = infoLog }},
		{"5-clientaddress", func(ch *chain) { ch.clientAddress = true }},
		{"6-deadline", func(ch *chain) { ch.deadline = 10 * time.Second }},
		{"7-bodylimits", func(ch *chain) { ch.bodies = NewBodyLimits(1 << 20) }},
		{"8-cors", nil},
	}
	body := []byte(`{"name":"propman","version":"1.0.0","ok":1}`)
	build := func(upTo int) fasthttp.RequestHandler {
		app := fiber.New(fiber.Config{DisableStartupMessage: true, ErrorHandler: ErrorHandler(infoLog)})
		if upTo >= 0 {
			ch := &chain{}
			for i := 0; i <= upTo && i < len(steps); i++ {
				if steps[i].add != nil {
					steps[i].add(ch)
				}
			}
			app.Use(ch.handle)
			if steps[upTo].name == "8-cors" {
				app.Use(cors.New(cors.Config{AllowOrigins: "https://app.example", AllowMethods: "GET,POST"}))
			}
		}
		app.Get("/x", func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
			return c.Send(body)
		})
		return app.Handler()
	}
	run := func(b *testing.B, h fasthttp.RequestHandler) {
		if parallel {
			// One request context per goroutine, all CPUs at once: what
			// the parts cost when their shared state (counters, the log
			// buffer) is written from every core, as under load.
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				var ctx fasthttp.RequestCtx
				ctx.Request.SetRequestURI("/x")
				ctx.Request.Header.SetMethod(fasthttp.MethodGet)
				for pb.Next() {
					ctx.Response.Reset()
					h(&ctx)
					if ctx.Response.StatusCode() != fasthttp.StatusOK {
						b.Errorf("status %d", ctx.Response.StatusCode())
						return
					}
				}
			})
			return
		}
		var ctx fasthttp.RequestCtx
		ctx.Request.SetRequestURI("/x")
		ctx.Request.Header.SetMethod(fasthttp.MethodGet)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			ctx.Response.Reset()
			h(&ctx)
			if ctx.Response.StatusCode() != fasthttp.StatusOK {
				b.Fatalf("status %d", ctx.Response.StatusCode())
			}
		}
	}
	b.Run("0-bare", func(b *testing.B) { run(b, build(-1)) })
	for i, s := range steps {
		b.Run(s.name, func(b *testing.B) { run(b, build(i)) })
	}
}
