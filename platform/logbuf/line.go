package logbuf

import (
	"io"
	"log/slog"
	"net/netip"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// Direct is a slog.Handler that also takes records formatted by hand: a
// caller that logs one fixed record very often (the access log, once per
// request) builds it with NewLine and hands it to WriteLine, which skips
// slog's per-attribute work (Attr values, the handler state, the caller's
// program counter). The line is byte for byte what the handler would have
// written for the same record through slog (TestLineMatchesSlog).
//
// The caller checks Enabled first, as slog does. A derived handler
// (WithAttrs, WithGroup) is an ordinary slog.Handler again.
type Direct interface {
	slog.Handler
	// NewLine starts a record with its time, level and message.
	NewLine(t time.Time, level slog.Level, msg string) *Line
	// WriteLine writes the record out and gives the line back to the pool;
	// l must not be used afterwards.
	WriteLine(l *Line) error
	// WriteAccess writes an access-log record: the line slog would write
	// for Access's fields, formatted in one go.
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
	return direct{Handler: h, w: w, json: json}
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

func (d direct) NewLine(t time.Time, level slog.Level, msg string) *Line {
	return newLine(d.json, t, level, msg)
}

func (d direct) WriteLine(l *Line) error {
	var err error
	if w, ok := d.w.(*Writer); ok {
		_, err = w.writeShard(l.shard, l.end())
	} else {
		_, err = d.w.Write(l.end())
	}
	l.free()
	return err
}

func (d direct) WriteAccess(a Access) error { return writeAccess(d.w, d.json, &a) }

// urgentDirect is urgentFlush over a Direct handler: a line of level warn
// or above is written out at once, as a record is.
type urgentDirect struct {
	urgentFlush
	d Direct
}

func (h urgentDirect) NewLine(t time.Time, level slog.Level, msg string) *Line {
	return h.d.NewLine(t, level, msg)
}

func (h urgentDirect) WriteAccess(a Access) error {
	err := h.d.WriteAccess(a)
	if a.Level >= slog.LevelWarn {
		_ = h.buf.Flush()
	}
	return err
}

func (h urgentDirect) WriteLine(l *Line) error {
	level := l.level
	err := h.d.WriteLine(l)
	if level >= slog.LevelWarn {
		_ = h.buf.Flush()
	}
	return err
}

// Line is one log record being formatted by hand, in the format of the
// handler that made it (see Direct). Keys must be plain words (letters,
// digits, '_'), which need no quoting in either format.
type Line struct {
	buf   []byte
	json  bool
	level slog.Level
	// shard is the Writer shard the line goes to: lines come from a
	// sync.Pool, which hands each P the line it put back last, so a line
	// keeps the shard of the CPU writing it without a look-up of its own.
	shard int
}

// maxPooled keeps an unusually long line (a long path quoted) out of the
// pool, so one such request does not keep its buffer for good.
const maxPooled = 4 << 10

var (
	linePool  = sync.Pool{New: func() any { return &Line{buf: make([]byte, 0, 256), shard: int(lineCount.Add(1) % shardCount)} }}
	lineCount atomic.Uint32
)

func newLine(json bool, t time.Time, level slog.Level, msg string) *Line {
	l := linePool.Get().(*Line)
	l.json, l.level = json, level
	t = t.Round(0) // strip the monotonic reading, as slog does
	if json {
		l.buf = append(l.buf, `{"time":"`...)
		l.buf = t.AppendFormat(l.buf, time.RFC3339Nano)
		l.buf = append(l.buf, `","level":`...)
	} else {
		l.buf = append(l.buf, "time="...)
		l.buf = appendStamp(l.buf, t)
		l.buf = append(l.buf, " level="...)
	}
	l.appendLevel(level)
	l.key("msg")
	l.appendString(msg)
	return l
}

// appendLevel writes the level's name; the four named levels need no
// quoting or escaping in either format, so they are not checked.
func (l *Line) appendLevel(level slog.Level) {
	var name string
	switch level {
	case slog.LevelDebug:
		name = "DEBUG"
	case slog.LevelInfo:
		name = "INFO"
	case slog.LevelWarn:
		name = "WARN"
	case slog.LevelError:
		name = "ERROR"
	default:
		l.appendString(level.String())
		return
	}
	if l.json {
		l.buf = append(l.buf, '"')
		l.buf = append(l.buf, name...)
		l.buf = append(l.buf, '"')
		return
	}
	l.buf = append(l.buf, name...)
}

func (l *Line) key(k string) {
	if l.json {
		l.buf = append(l.buf, ',', '"')
		l.buf = append(l.buf, k...)
		l.buf = append(l.buf, '"', ':')
	} else {
		l.buf = append(l.buf, ' ')
		l.buf = append(l.buf, k...)
		l.buf = append(l.buf, '=')
	}
}

// String adds a string attribute.
func (l *Line) String(key, v string) {
	l.key(key)
	l.appendString(v)
}

// Word adds a value the caller knows needs no quoting or escaping in
// either format (letters, digits, '-', '.', ':' and '_' only), as String
// would write it, without checking it.
func (l *Line) Word(key string, v []byte) {
	l.key(key)
	if l.json {
		l.buf = append(l.buf, '"')
		l.buf = append(l.buf, v...)
		l.buf = append(l.buf, '"')
		return
	}
	l.buf = append(l.buf, v...)
}

// Addr adds an IP address, as String(key, a.String()) would without making
// the string.
func (l *Line) Addr(key string, a netip.Addr) {
	if a.Zone() != "" || !a.IsValid() {
		l.String(key, a.String())
		return
	}
	// Digits, letters, '.' and ':' need no quoting or escaping.
	l.key(key)
	if l.json {
		l.buf = append(l.buf, '"')
		l.buf = a.AppendTo(l.buf)
		l.buf = append(l.buf, '"')
		return
	}
	l.buf = a.AppendTo(l.buf)
}

// Int adds an integer attribute.
func (l *Line) Int(key string, v int) {
	l.key(key)
	l.buf = appendInt(l.buf, v)
}

// Duration adds a duration: its String() in text, nanoseconds in JSON, as
// slog writes them.
func (l *Line) Duration(key string, d time.Duration) {
	l.key(key)
	if l.json {
		l.buf = strconv.AppendInt(l.buf, int64(d), 10)
	} else {
		l.buf = append(l.buf, d.String()...)
	}
}

func (l *Line) end() []byte {
	if l.json {
		l.buf = append(l.buf, '}')
	}
	l.buf = append(l.buf, '\n')
	return l.buf
}

func (l *Line) free() {
	if cap(l.buf) > maxPooled {
		return
	}
	l.buf = l.buf[:0]
	linePool.Put(l)
}

// appendString writes s as slog's handler of the line's format does.
func (l *Line) appendString(s string) {
	if l.json {
		l.buf = append(l.buf, '"')
		l.buf = appendEscapedJSONString(l.buf, s)
		l.buf = append(l.buf, '"')
		return
	}
	if needsQuoting(s) {
		l.buf = strconv.AppendQuote(l.buf, s)
		return
	}
	l.buf = append(l.buf, s...)
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
	switch {
	case class == 0:
		return false
	case class == quote:
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
