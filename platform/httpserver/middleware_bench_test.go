package httpserver

import (
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"
	"github.com/gofiber/fiber/v2/middleware/requestid"
	"github.com/valyala/fasthttp"

	"github.com/propman/propman/platform/logbuf"
)

// BenchmarkMiddleware measures what each middleware every request pays for
// adds, one at a time: the chain of New is built up step by step in front
// of a handler sending 40 bytes of JSON, and each step is a sub-benchmark
// run in process (fasthttp's handler called directly, no socket), so the
// difference between two steps is the cost of the middleware added. The
// access log writes to /dev/null through a real file, as to a log file:
// through slog directly (3), through slog over logbuf (3b, how propman
// serve wrote it before the line was formatted by hand), and as propman
// serve writes it now (3c: the line formatted by hand into logbuf, see
// logbuf.Direct), which the later steps keep.
//
//	go test -run '^$' -bench Middleware -benchtime 200000x ./platform/httpserver/
func BenchmarkMiddleware(b *testing.B) {
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
		mw   fiber.Handler
	}{
		{"1-requestid", requestid.New(requestid.Config{Header: fiber.HeaderXRequestID})},
		{"1b-nosniff", noSniff},
		{"2-accesslog-warn", accessLog(warnLog)},
		{"3-accesslog-info", nil},         // step 2 writing each line to the file
		{"3b-accesslog-info-logbuf", nil}, // step 2 writing through slog over logbuf
		{"3c-accesslog-info-direct", nil}, // step 2 as propman serve writes it
		{"4-recover", recoverer(infoLog)},
		{"5-cors", cors.New(cors.Config{AllowOrigins: "https://app.example", AllowMethods: "GET,POST"})},
		{"6-clientaddress", clientAddress(nil)},
		{"7-deadline", requestDeadline(10 * time.Second)},
	}
	step := func(name string) int {
		for i, s := range steps {
			if s.name == name {
				return i
			}
		}
		panic(name)
	}
	// The access log's three later steps replace its first one.
	direct, buffered, handmade := step("3-accesslog-info"), step("3b-accesslog-info-logbuf"), step("3c-accesslog-info-direct")
	body := []byte(`{"name":"propman","version":"1.0.0","ok":1}`)
	build := func(upTo int) fasthttp.RequestHandler {
		app := fiber.New(fiber.Config{DisableStartupMessage: true, ErrorHandler: ErrorHandler(infoLog)})
		for i := 0; i <= upTo && i < len(steps); i++ {
			mw := steps[i].mw
			switch {
			case steps[i].name == "2-accesslog-warn" && upTo == direct:
				mw = accessLog(infoLog)
			case steps[i].name == "2-accesslog-warn" && upTo == buffered:
				mw = accessLog(bufferedLog)
			case steps[i].name == "2-accesslog-warn" && upTo >= handmade:
				mw = accessLog(directLog)
			case mw == nil:
				continue
			}
			app.Use(mw)
		}
		app.Get("/x", func(c *fiber.Ctx) error {
			c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
			return c.Send(body)
		})
		return app.Handler()
	}
	run := func(b *testing.B, h fasthttp.RequestHandler) {
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
