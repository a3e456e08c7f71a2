package logbuf_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/propman/propman/platform/logbuf"
)

// lockedBuffer is a bytes.Buffer safe to read while the flusher writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestWriter(t *testing.T) {
	out := &lockedBuffer{}
	w := logbuf.New(out)
	log := slog.New(w.Handler(slog.NewTextHandler(w, nil)))

	log.Info("request", "n", 1)
	if got := out.String(); got != "" {
		t.Fatalf("an info line was written at once: %q", got)
	}
	log.Warn("trouble")
	if got := out.String(); !strings.Contains(got, "msg=request") || !strings.Contains(got, "msg=trouble") {
		t.Fatalf("a warning did not write out what waited: %q", got)
	}

	log.Info("later")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "msg=later") {
		if time.Now().After(deadline) {
			t.Fatal("the periodic flush never wrote the info line")
		}
		time.Sleep(10 * time.Millisecond)
	}

	big := strings.Repeat("x", 100<<10)
	log.Info("big", "v", big)
	log.Info("last")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, big) || !strings.HasSuffix(strings.TrimSpace(got), "msg=last") {
		t.Fatalf("Close lost lines or their order (%d bytes)", len(got))
	}
	if n := strings.Count(got, "\n"); n != 5 {
		t.Fatalf("%d lines, want 5", n)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

func TestWriterConcurrent(t *testing.T) {
	out := &lockedBuffer{}
	w := logbuf.New(out)
	log := slog.New(w.Handler(slog.NewTextHandler(w, nil)))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				log.Info("line", "g", g, "i", i)
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 16000 {
		t.Fatalf("%d lines, want 16000", len(lines))
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "time=") || !strings.Contains(l, "msg=line") {
			t.Fatalf("a torn line: %q", l)
		}
	}
}

// Goroutines taking turns (each writes a line, then hands over to the
// next) may run on any CPU and so write to any shard; the lines still come
// out in the order they were written.
func TestWriterKeepsOrderAcrossGoroutines(t *testing.T) {
	out := &lockedBuffer{}
	w := logbuf.New(out)
	const workers, lines = 4, 4000
	turns := make([]chan int, workers)
	for i := range turns {
		turns[i] = make(chan int, 1)
	}
	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The end passes round as a closed channel: each closes the
			// next one's.
			next := turns[(g+1)%workers]
			defer close(next)
			for n := range turns[g] {
				if n == lines {
					return
				}
				_, _ = fmt.Fprintf(w, "seq=%d\n", n)
				next <- n + 1
			}
		}()
	}
	turns[0] <- 0
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != lines {
		t.Fatalf("%d lines, want %d", len(got), lines)
	}
	for i, l := range got {
		if l != fmt.Sprintf("seq=%d", i) {
			t.Fatalf("line %d is %q", i, l)
		}
	}
}
