package analytics

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/fx"

	"github.com/propman/propman/platform/database"
)

// Errors of Buffer.Add.
var (
	ErrFull   = errors.New("analytics: buffer full")
	ErrClosed = errors.New("analytics: buffer closed")
)

// Buffer holds accepted events until a writer puts them into the
// database. Its bound is counted in events and bytes and reserved under
// one lock for a whole request, so a request is taken entirely or not at
// all; the channel that carries the requests' events to the writers has
// room for as many items as events may wait, so a send never blocks.
type Buffer struct {
	cfg   Config
	store *Store
	log   *slog.Logger

	mu      sync.Mutex
	closed  bool
	events  int // reserved: accepted and not yet written
	bytes   int
	in      chan pending
	writers sync.WaitGroup

	// ctx ends the writers' database work when the stop's deadline passes.
	ctx    context.Context
	cancel context.CancelFunc

	written atomic.Int64
	dropped atomic.Int64
}

// pending is one request's events and the bytes they reserved.
type pending struct {
	events []Event
	bytes  int
}

// NewBuffer returns the buffer, whose writers run from the app's start to
// its stop; the stop writes everything accepted before it. Its hooks are
// registered before the HTTP server's (the routes need the buffer), so fx
// stops the server first: no request is accepted after the last write.
func NewBuffer(lc fx.Lifecycle, cfg Config, store *Store, log *slog.Logger) *Buffer {
	ctx, cancel := context.WithCancel(context.Background())
	b := &Buffer{cfg: cfg, store: store, log: log, in: make(chan pending, cfg.Buffer), ctx: ctx, cancel: cancel}
	writers := cfg.Writers
	if !store.postgres {
		// SQLite has one writer; a second would wait on its lock.
		writers = 1
	}
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			for range writers {
				b.writers.Add(1)
				go b.run()
			}
			return nil
		},
		OnStop: b.stop,
	})
	return b
}

// Add takes events (of size bytes) or none: ErrFull when they do not fit,
// ErrClosed once the app is stopping.
func (b *Buffer) Add(events []Event, size int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return ErrClosed
	}
	if b.events+len(events) > b.cfg.Buffer || b.bytes+size > b.cfg.BufferBytes {
		return ErrFull
	}
	b.events += len(events)
	b.bytes += size
	b.in <- pending{events: events, bytes: size}
	return nil
}

// Waiting returns the events accepted and not yet written.
func (b *Buffer) Waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.events
}

// Written returns how many events this buffer has written.
func (b *Buffer) Written() int64 { return b.written.Load() }

func (b *Buffer) release(events, bytes int) {
	b.mu.Lock()
	b.events -= events
	b.bytes -= bytes
	b.mu.Unlock()
}

// stop refuses new events, lets the writers write what is queued and
// waits for them until ctx ends; then whatever is left is lost and said.
func (b *Buffer) stop(ctx context.Context) error {
	b.mu.Lock()
	b.closed = true
	close(b.in)
	b.mu.Unlock()
	done := make(chan struct{})
	go func() { b.writers.Wait(); close(done) }()
	select {
	case <-done:
		b.cancel()
		return nil
	case <-ctx.Done():
		b.cancel()
		<-done
		lost := b.dropped.Load()
		b.log.Error("analytics: stopped before every event was written", "lost", lost)
		return fmt.Errorf("analytics: %d events not written before the stop's deadline", lost)
	}
}

// run is one writer: it gathers requests' events until a batch is full
// or the oldest has waited Flush, and writes them.
func (b *Buffer) run() {
	defer b.writers.Done()
	batch := make([]Event, 0, b.cfg.Batch+MaxEvents)
	bytes := 0
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	flush := func() {
		timer.Stop()
		if len(batch) == 0 {
			return
		}
		b.write(batch)
		b.release(len(batch), bytes)
		clear(batch) // the strings go with the events
		batch, bytes = batch[:0], 0
	}
	for {
		select {
		case p, ok := <-b.in:
			if !ok {
				flush()
				return
			}
			if len(batch) == 0 {
				timer.Reset(b.cfg.Flush)
			}
			batch = append(batch, p.events...)
			bytes += p.bytes
			if len(batch) >= b.cfg.Batch {
				flush()
			}
		case <-timer.C:
			flush()
		}
	}
}

// write puts batch into the database. While the database is unreachable
// it tries again, holding the batch (the buffer fills and clients get
// 429: the backpressure they should see); a batch the database refuses
// for its data is written event by event, and only the refused events
// are dropped, so one bad event cannot block the others.
func (b *Buffer) write(batch []Event) {
	wait := 50 * time.Millisecond
	for {
		err := b.store.Write(b.ctx, batch)
		if err == nil {
			b.written.Add(int64(len(batch)))
			return
		}
		if b.ctx.Err() != nil {
			b.dropped.Add(int64(len(batch)))
			return
		}
		if !database.IsUnavailable(err) && !database.IsBusy(err) {
			b.log.Error("analytics: a batch was refused; writing its events one by one", "events", len(batch), "err", err)
			b.writeEach(batch)
			return
		}
		b.log.Warn("analytics: cannot write events; trying again", "events", len(batch), "in", wait, "err", err)
		select {
		case <-time.After(wait):
		case <-b.ctx.Done():
		}
		wait = min(2*wait, 5*time.Second)
	}
}

func (b *Buffer) writeEach(batch []Event) {
	for i := range batch {
		if err := b.store.Write(b.ctx, batch[i:i+1]); err != nil {
			b.dropped.Add(1)
			b.log.Error("analytics: event dropped", "name", batch[i].Name, "err", err)
			continue
		}
		b.written.Add(1)
	}
}

// Summary reads the stored events of the window from..to (dates
// YYYY-MM-DD) per day and in total, of name when given: what the buffer
// has written, not what still waits in it.
func (b *Buffer) Summary(ctx context.Context, from, to, name string) ([]Day, Day, error) {
	return b.store.Summary(ctx, from, to, name)
}
