package logbuf_test

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/propman/propman/platform/logbuf"
)

// BenchmarkAccessLine formats and writes the access line as the chain in
// platform/httpserver does (WriteAccess: our request id, method, path,
// status, duration, address, size), on every CPU at once, into a Writer
// over io.Discard: what the line costs a request apart from the syscall
// that writes it out.
//
//	go test -run '^$' -bench AccessLine -benchtime 2000000x ./platform/logbuf/
func BenchmarkAccessLine(b *testing.B) {
	w := logbuf.New(io.Discard)
	defer w.Close()
	h := w.Handler(logbuf.NewHandler(w, false, &slog.HandlerOptions{Level: slog.LevelInfo})).(logbuf.Direct)
	a := logbuf.Access{
		Time: time.Now(), Level: slog.LevelInfo, Own: true, Method: "GET", Path: "/api/v1/countries/DE",
		Status: 200, Duration: 187300 * time.Nanosecond, IP: "127.0.0.1", Bytes: 159,
	}
	copy(a.OurID[:], "0f8e3c1a-5b2d-4e6f-8a9b-0c1d2e3f4a5b")
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = h.WriteAccess(a)
		}
	})
}
