package logbuf_test

import (
	"io"
	"log/slog"
	"net/netip"
	"testing"
	"time"

	"github.com/propman/propman/platform/logbuf"
)

// BenchmarkAccessLine formats and writes the access line as the chain in
// platform/httpserver does (our request id, method, path, status,
// duration, address, size), on every CPU at once, into a Writer over
// io.Discard: what the line costs a request apart from the syscall that
// writes it out.
//
//	go test -run '^$' -bench AccessLine -benchtime 2000000x ./platform/logbuf/
func BenchmarkAccessLine(b *testing.B) {
	w := logbuf.New(io.Discard)
	defer w.Close()
	h := w.Handler(logbuf.NewHandler(w, false, &slog.HandlerOptions{Level: slog.LevelInfo})).(logbuf.Direct)
	id := []byte("0f8e3c1a-5b2d-4e6f-8a9b-0c1d2e3f4a5b")
	addr := netip.MustParseAddr("127.0.0.1")
	now := time.Now()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l := h.NewLine(now, slog.LevelInfo, "request")
			l.Word("request_id", id)
			l.String("method", "GET")
			l.String("path", "/api/v1/countries/DE")
			l.Int("status", 200)
			l.Duration("duration", 187300*time.Nanosecond)
			l.Addr("ip", addr)
			l.Int("bytes", 159)
			_ = h.WriteLine(l)
		}
	})
}
