// Package logbuf is the writer under the service's log: lines are gathered
// in memory and written out together, so a request's access line costs a
// copy rather than a write(2). Its handler (NewHandler) also takes lines
// formatted by hand (Direct), so the access line skips slog's attribute
// machinery too.
package logbuf

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// A write(2) per request was most of what the access log cost
// (BenchmarkMiddleware in platform/httpserver measures it).
const (
	flushEvery = 100 * time.Millisecond
	size       = 64 << 10
)

// Writer keeps lines until flushEvery has passed, size bytes wait, a line
// of level warn or above is logged (through Handler), or Close. At most
// flushEvery of info lines can be lost if the process is killed; warnings
// and errors are written at once.
type Writer struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte
	stop chan struct{}
	done chan struct{}
}

// New starts the periodic flush of a buffer over w.
func New(w io.Writer) *Writer {
	b := &Writer{w: w, buf: make([]byte, 0, size), stop: make(chan struct{}), done: make(chan struct{})}
	go b.loop()
	return b
}

func (b *Writer) loop() {
	defer close(b.done)
	t := time.NewTicker(flushEvery)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			_ = b.Flush()
		}
	}
}

// Write keeps p (slog hands over one whole line per call).
func (b *Writer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf)+len(p) > size {
		if err := b.flushLocked(); err != nil {
			return 0, err
		}
		if len(p) > size {
			return b.w.Write(p)
		}
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// Flush writes out what waits.
func (b *Writer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *Writer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

// Close stops the periodic flush and writes out what waits.
func (b *Writer) Close() error {
	select {
	case <-b.stop:
	default:
		close(b.stop)
		<-b.done
	}
	return b.Flush()
}

// Handler wraps h, a handler writing to b, so that each record of level
// warn or above is written out at once. When h is Direct, so is the result.
func (b *Writer) Handler(h slog.Handler) slog.Handler {
	u := urgentFlush{Handler: h, buf: b}
	if d, ok := h.(Direct); ok {
		return urgentDirect{urgentFlush: u, d: d}
	}
	return u
}

// urgentFlush writes out the buffer after each record of level warn or
// above, so problems reach the log at once.
type urgentFlush struct {
	slog.Handler
	buf *Writer
}

func (h urgentFlush) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		_ = h.buf.Flush()
	}
	return err
}

func (h urgentFlush) WithAttrs(attrs []slog.Attr) slog.Handler {
	return urgentFlush{Handler: h.Handler.WithAttrs(attrs), buf: h.buf}
}

func (h urgentFlush) WithGroup(name string) slog.Handler {
	return urgentFlush{Handler: h.Handler.WithGroup(name), buf: h.buf}
}
