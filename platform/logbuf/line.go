package logbuf

import (
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// Direct is a slog.Handler that also writes the access log's record
// formatted by hand (WriteAccess): the service writes one a request, and
// slog's per-attribute work (Attr values, the handler state, the caller's
// program counter) was most of what it cost. The line is byte for byte
// what the handler would have written for the same record through slog
// (TestAccessMatchesSlog).
//
// The caller checks Enabled first, as slog does. A derived handler
// (WithAttrs, WithGroup) is an ordinary slog.Handler again.
type Direct interface {
	slog.Handler
	// WriteAccess writes an access-log record: the line slog would write
	// for Access's fields. Nothing of a is kept after it returns.
	WriteAccess(a Access) error
}

// NewHandler is the service's log handler: slog's JSON handler when json is
// set, its text handler otherwise, over w, and a Direct handler whose lines
// go to w in the same format. Writes to w are serialised (w itself is not
// wrapped when it is a *Writer, which serialises its own).
func NewHandler(w io.Writer, json bool, opts *slog.HandlerOptions) slog.Handler {
	if _, ok := w.(*Writer); !ok {
		w = &lockedWriter{w: w}
	}
	var h slog.Handler
	if json {
		h = slog.NewJSONHandler(w, opts)
	} else {
		h = slog.NewTextHandler(w, opts)
	}
	return &direct{Handler: h, w: w, json: json}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type direct struct {
	slog.Handler
	w    io.Writer
	json bool
}

// Pointer receivers here and in urgentDirect: a value receiver, called
// through the interface, had Go's wrapper copy the handler and the record
// once more.
func (d *direct) WriteAccess(a Access) error { return writeAccess(d.w, d.json, &a) }

// urgentDirect is urgentFlush over a Direct handler: a line of level warn
// or above is written out at once, as a record is.
type urgentDirect struct {
	urgentFlush
	d Direct
}

func (h *urgentDirect) WriteAccess(a Access) error {
	err := h.d.WriteAccess(a)
	if a.Level >= slog.LevelWarn {
		_ = h.buf.Flush()
	}
	return err
}

// line is the buffer a record is formatted in, from a pool.
type line struct {
	buf []byte
	// shard is the Writer shard the line goes to: lines come from a
	// sync.Pool, which hands each P the line it put back last, so a line
	// keeps the shard of the CPU writing it without a look-up of its own.
	shard int
}

// maxPooled keeps an unusually long line (a long path quoted) out of the
// pool, so one such request does not keep its buffer for good.
const maxPooled = 4 << 10

var (
	linePool  = sync.Pool{New: func() any { return &line{buf: make([]byte, 0, 256), shard: int(lineCount.Add(1) % shardCount)} }}
	lineCount atomic.Uint32
)

func (l *line) free() {
	if cap(l.buf) > maxPooled {
		return
	}
	l.buf = l.buf[:0]
	linePool.Put(l)
}

// stamp is the second of a time as the text format writes it: the text
// up to the milliseconds ("2026-11-23T23:53:53.") and after them (the zone,
// "Z" or "+05:30"). Formatting the time was a fifth of an access line's
// cost; within a second only the three digits of the milliseconds change,
// so the last second formatted is kept for the lines that follow. (It was
// kept per millisecond, which a server answering a few requests a
// millisecond missed more often than not.)
type stamp struct {
	sec            int64
	loc            *time.Location
	prefix, suffix []byte
}

var lastStamp atomic.Pointer[stamp]

// stampPrefixLen is the length of "2006-01-02T15:04:05.".
const stampPrefixLen = 20

func appendStamp(b []byte, t time.Time) []byte {
	sec := t.Unix()
	if s := lastStamp.Load(); s != nil && s.sec == sec && s.loc == t.Location() {
		ms := t.Nanosecond() / int(time.Millisecond)
		b = append(b, s.prefix...)
		b = append(b, byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
		return append(b, s.suffix...)
	}
	n := len(b)
	b = appendRFC3339Millis(b, t)
	// A year outside 0-9999 changes the layout: such a time is not kept.
	if f := b[n:]; len(f) > stampPrefixLen+3 && f[stampPrefixLen-1] == '.' {
		lastStamp.Store(&stamp{sec: sec, loc: t.Location(),
			prefix: slices.Clone(f[:stampPrefixLen]), suffix: slices.Clone(f[stampPrefixLen+3:])})
	}
	return b
}

// The functions below are log/slog's own (Go 1.26), which it does not
// export; TestLineMatchesSlog and FuzzLineMatchesSlog hold them to slog's
// output.

func appendRFC3339Millis(b []byte, t time.Time) []byte {
	// RFC3339Nano trims trailing zeros: add 1/10 ms so there are exactly
	// four digits after the point, then drop the fourth.
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(b)
	t = t.Truncate(time.Millisecond).Add(time.Millisecond / 10)
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefixLen], b[n+prefixLen+1:]...)
}

// safe: ASCII that a JSON string holds as it is (all but the control
// characters, '"' and '\\').
func safe(b byte) bool { return b >= 0x20 && b != '"' && b != '\\' }

// asciiClass sorts bytes for needsQuoting: 0 for ASCII the text format
// writes as it is, quote for ASCII it quotes (controls, space, '=', '"'),
// multi for the bytes of a multi-byte (or invalid) UTF-8 sequence. Paths
// and methods are plain ASCII: one look-up a byte.
var asciiClass = func() (t [256]uint8) {
	for b := range t {
		switch {
		case b >= utf8.RuneSelf:
			t[b] = multi
		case b != '\\' && (b == ' ' || b == '=' || !safe(byte(b))):
			t[b] = quote
		}
	}
	return t
}()

const (
	quote = 1
	multi = 2
)

func needsQuoting(s string) bool {
	if len(s) == 0 {
		return true
	}
	// Eight bytes at a time while none is suspect: a byte of 0x80 or more,
	// one below '!' (controls, space), '=' or '"'. The borrows of the
	// subtractions may flag a byte above a suspect one too, never miss one;
	// any flag sends the string to the exact check.
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		const ones, highs = 0x0101010101010101, 0x8080808080808080
		eq, quot := x^(ones*'='), x^(ones*'"')
		if (x|(x-ones*'!')|(eq-ones)&^eq|(quot-ones)&^quot)&highs != 0 {
			return needsQuotingExact(s)
		}
	}
	// The rest, a byte at a time with no branch a byte.
	var class uint8
	for ; i < len(s); i++ {
		class |= asciiClass[s[i]]
	}
	switch class {
	case 0:
		return false
	case quote:
		return true
	}
	return needsQuotingExact(s)
}

func needsQuotingExact(s string) bool {
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			if asciiClass[b] == quote {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
		i += size
	}
	return false
}

const hexDigits = "0123456789abcdef"

func appendEscapedJSONString(buf []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if safe(b) {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\')
			switch b {
			case '\\', '"':
				buf = append(buf, b)
			case '\n':
				buf = append(buf, 'n')
			case '\r':
				buf = append(buf, 'r')
			case '\t':
				buf = append(buf, 't')
			default:
				buf = append(buf, 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\u202`...)
			buf = append(buf, hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(buf, s[start:]...)
}
