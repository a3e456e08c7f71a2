// Package logbuf is the writer under the service's log: lines are gathered
// in memory and written out together, so a request's access line costs a
// copy rather than a write(2). Its handler (NewHandler) also takes lines
// formatted by hand (Direct), so the access line skips slog's attribute
// machinery too.
package logbuf

import (
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// A write(2) per request was most of what the access log cost
// (BenchmarkMiddleware in platform/httpserver measures it).
const (
	flushEvery = 100 * time.Millisecond
	size       = 64 << 10
)

// shardCount is how many buffers lines are gathered in: more than the CPUs
// of the machines propman runs on, so each CPU keeps to one of its own.
const shardCount = 16

// Writer keeps lines until flushEvery has passed, size bytes wait in one of
// its buffers, a line of level warn or above is logged (through Handler),
// or Close. At most flushEvery of info lines can be lost if the process is
// killed; warnings and errors are written at once.
//
// Lines are gathered in shards: one buffer and lock per CPU rather than
// one for all, since every request's access line passes here and one lock
// and one buffer shared by every CPU moved their memory between the cores
// on every line. A caller takes a shard through a sync.Pool, which hands
// each P the one it put back last. Each line is stamped with the monotonic
// clock under its shard's lock (an access line with its own time, which
// saves reading the clock again), and a flush takes every shard's lock
// before it swaps their buffers, then merges them by stamp: lines come out
// in the order they were written, as with one buffer (access lines, in the
// order of their times).
type Writer struct {
	w       io.Writer
	shards  [shardCount]shard
	slots   sync.Pool // *int: a shard index
	next    atomic.Uint32
	base    time.Time // origin of the stamps (monotonic)
	flushMu sync.Mutex
	out     []byte // the merged lines of a flush; under flushMu
	stop    chan struct{}
	done    chan struct{}
}

// shard holds lines as entries: an 8-byte stamp, a 4-byte length, the line.
type shard struct {
	mu    sync.Mutex
	last  uint64 // the stamp of the shard's last line
	buf   []byte
	spare []byte // the buffer the last flush emptied, reused by the next
	_     [64]byte
}

const entryHeader = 12

// New starts the periodic flush of a buffer over w.
func New(w io.Writer) *Writer {
	b := &Writer{w: w, base: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	b.slots.New = func() any {
		i := int(b.next.Add(1) % shardCount)
		return &i
	}
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
	slot := b.slots.Get().(*int)
	i := *slot
	b.slots.Put(slot)
	return b.writeShard(i, p)
}

func (b *Writer) writeShard(i int, p []byte) (int, error) {
	return b.write(i, p, time.Time{})
}

// writeShardAt writes a line whose time is at (read from the monotonic
// clock): its stamp is at, not a second reading of the clock, which costs
// ~40 ns on this kind of virtual machine. Lines of one shard still come out
// in the order written (a stamp is never below the shard's last one);
// across shards, by their time.
func (b *Writer) writeShardAt(i int, p []byte, at time.Time) (int, error) {
	return b.write(i, p, at)
}

func (b *Writer) write(i int, p []byte, at time.Time) (int, error) {
	sh := &b.shards[i]
	sh.mu.Lock()
	var stamp uint64
	if at.IsZero() {
		stamp = uint64(time.Since(b.base))
	} else {
		stamp = uint64(max(at.Sub(b.base), 0))
	}
	stamp = max(stamp, sh.last)
	sh.last = stamp
	var head [entryHeader]byte
	binary.LittleEndian.PutUint64(head[:8], stamp)
	binary.LittleEndian.PutUint32(head[8:], uint32(len(p)))
	sh.buf = append(append(sh.buf, head[:]...), p...)
	full := len(sh.buf) >= size
	sh.mu.Unlock()
	if full {
		if err := b.Flush(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes out what waits, in the order it was written.
func (b *Writer) Flush() error {
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	// Every shard at once: a line written after the flush took its lines
	// from one shard, and before it took those of another, must wait for
	// the next flush too, or it would come out before earlier lines.
	var taken [shardCount][]byte
	for i := range b.shards {
		b.shards[i].mu.Lock()
	}
	for i := range b.shards {
		sh := &b.shards[i]
		taken[i] = sh.buf
		sh.buf, sh.spare = sh.spare[:0], nil
	}
	for i := range b.shards {
		b.shards[i].mu.Unlock()
	}
	heads := taken // merge consumes its copy; taken keeps the buffers
	b.out = merge(b.out[:0], &heads)
	var err error
	if len(b.out) > 0 {
		_, err = b.w.Write(b.out)
	}
	if cap(b.out) > 4*size {
		b.out = nil // after a burst, do not keep its buffer
	}
	for i := range b.shards {
		sh := &b.shards[i]
		sh.mu.Lock()
		if sh.spare == nil && cap(taken[i]) <= 4*size {
			sh.spare = taken[i][:0]
		}
		sh.mu.Unlock()
	}
	return err
}

// merge appends the lines of the shards' entries to out, oldest stamp
// first (each shard's entries are in stamp order already). Only the shards
// holding lines are looked at: a busy process fills one per CPU, not 16.
func merge(out []byte, shards *[shardCount][]byte) []byte {
	var live [shardCount]int
	n := 0
	for i, e := range shards {
		if len(e) > 0 {
			live[n] = i
			n++
		}
	}
	for n > 0 {
		best := 0
		bestStamp := binary.LittleEndian.Uint64(shards[live[0]])
		for k := 1; k < n; k++ {
			if st := binary.LittleEndian.Uint64(shards[live[k]]); st < bestStamp {
				best, bestStamp = k, st
			}
		}
		e := shards[live[best]]
		size := entryHeader + int(binary.LittleEndian.Uint32(e[8:]))
		out = append(out, e[entryHeader:size]...)
		if shards[live[best]] = e[size:]; len(e) == size {
			n--
			live[best] = live[n]
		}
	}
	return out
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
		return &urgentDirect{urgentFlush: u, d: d}
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
