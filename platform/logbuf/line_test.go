package logbuf_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/platform/logbuf"
)

// addrs are written as Line.Addr and as slog strings of the same address.
var addrs = []netip.Addr{
	netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("::ffff:192.0.2.1"),
	netip.MustParseAddr("fe80::1%eth0"), netip.MustParseAddr("fe80::1%a b=\"c\""), {},
}

// words are written as Line.Word and as slog strings: the values Word is
// for (a request id, an address) and the characters it allows.
var words = []string{"0f8e3c1a-5b2d-4e6f-8a9b-0c1d2e3f4a5b", "192.0.2.1:8080", "a_b.c-d:E9"}

// viaSlog and viaLine write the same record through slog's handler and as
// a Line, in the format json says.
func viaSlog(t testing.TB, json bool, at time.Time, level slog.Level, s string, n int, d time.Duration) string {
	t.Helper()
	var out bytes.Buffer
	var h slog.Handler = slog.NewTextHandler(&out, nil)
	if json {
		h = slog.NewJSONHandler(&out, nil)
	}
	r := slog.NewRecord(at, level, "request", 0)
	r.AddAttrs(slog.String("path", s), slog.Int("status", n), slog.Duration("duration", d), slog.String("ip", "192.0.2.1"))
	for _, w := range words {
		r.AddAttrs(slog.String("word", w))
	}
	for _, a := range addrs {
		r.AddAttrs(slog.String("addr", a.String()))
	}
	if err := h.Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func viaLine(t testing.TB, json bool, at time.Time, level slog.Level, s string, n int, d time.Duration) string {
	t.Helper()
	var out bytes.Buffer
	h := logbuf.NewHandler(&out, json, nil).(logbuf.Direct)
	l := h.NewLine(at, level, "request")
	l.String("path", s)
	l.Int("status", n)
	l.Duration("duration", d)
	l.String("ip", "192.0.2.1")
	for _, w := range words {
		l.Word("word", []byte(w))
	}
	for _, a := range addrs {
		l.Addr("addr", a)
	}
	if err := h.WriteLine(l); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestLineMatchesSlog: a line formatted by hand is what slog writes, in
// both formats, for strings that need quoting or escaping, times in other
// zones, on whole milliseconds and within the millisecond of the line
// before, every level and odd durations.
func TestLineMatchesSlog(t *testing.T) {
	east := time.FixedZone("", 5*3600+30*60)
	times := []time.Time{
		time.Now(), // with a monotonic reading
		time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 22, 10, 0, 0, 120_000_000, time.UTC),
		// the same millisecond as the line before: in another zone, and
		// later within it (the text format keeps the last time formatted)
		time.Date(2026, 11, 22, 10, 0, 0, 120_000_000, time.UTC).In(east),
		time.Date(2026, 11, 22, 10, 0, 0, 120_999_999, east),
		// the same second and zone as the line before (the text format
		// keeps the last second formatted), milliseconds below 100
		time.Date(2026, 11, 22, 10, 0, 0, 7_000_000, east),
		time.Date(2026, 11, 22, 10, 0, 0, 121_000_000, time.UTC),
		time.Date(2026, 11, 22, 10, 0, 0, 999_999_999, east),
		time.Date(2026, 1, 2, 3, 4, 5, 6, time.Local),
	}
	strs := []string{
		"/api/v1/countries", "", " ", "a b", "a=b", `q"uote`, `back\slash`, "tab\there", "new\nline",
		"\x00\x1f\x7f", "ümlaut/日本", "\xff\xfe", "bad\xc3", "\u2028\u2029", "\u00a0nbsp", "\u200bzero",
		"<script>&amp;", "/x?y=1&z=2", strings.Repeat("é", 3000),
		// past the first eight bytes, which are checked eight at a time,
		// and in the bytes after the last whole eight
		"/api/v1/countries/D E", "/api/v1/x=y/abcdefgh", `/api/v1/"q"/abcdefgh`, "/api/v1/\x01/abcdefgh",
		"/api/v1/ü/abcdefgh", "/api/v1/abcdefg\x7f", "/api/v1/abcdefgh/a=", `/api/v1/abcdefgh/"`, "/api/v1/abcdefgh/\t",
		"/api/v1/abcdefgh/ÿ", "/api/v1/abcdefgh/\xff", "/api/v1/\x85\x9f/abcdefgh",
	}
	durs := []time.Duration{0, 1, 999, 1500 * time.Microsecond, 2*time.Second + 3, -5 * time.Millisecond}
	levels := []slog.Level{slog.LevelInfo, slog.LevelError, slog.LevelWarn, slog.LevelDebug, slog.LevelInfo + 2}
	for _, json := range []bool{false, true} {
		for i, at := range times {
			for j, s := range strs {
				d := durs[(i+j)%len(durs)]
				level := levels[(i+j)%len(levels)]
				want := viaSlog(t, json, at, level, s, i*j-3, d)
				if got := viaLine(t, json, at, level, s, i*j-3, d); got != want {
					t.Errorf("json=%v:\n got %q\nwant %q", json, got, want)
				}
			}
		}
	}
}

func FuzzLineMatchesSlog(f *testing.F) {
	f.Add("/api/v1/countries", int64(0), int64(1500))
	f.Add("a b=\"c\"\\\x00\xff\u2028", int64(1_700_000_000_123_456_789), int64(-7))
	f.Fuzz(func(t *testing.T, s string, unixNano, d int64) {
		at := time.Unix(0, unixNano).In(time.FixedZone("", int(unixNano%50_000)))
		if y := at.Year(); y < 0 || y > 9999 {
			t.Skip() // slog writes an error in place of such a time
		}
		for _, json := range []bool{false, true} {
			want := viaSlog(t, json, at, slog.LevelInfo, s, int(d), time.Duration(d))
			if got := viaLine(t, json, at, slog.LevelInfo, s, int(d), time.Duration(d)); got != want {
				t.Fatalf("json=%v:\n got %q\nwant %q", json, got, want)
			}
		}
	})
}

// TestDirectUrgentLine: through a Writer, an info line waits and an error
// line is written out at once with what waited, as records are.
func TestDirectUrgentLine(t *testing.T) {
	out := &lockedBuffer{}
	w := logbuf.New(out)
	defer w.Close()
	h, ok := w.Handler(logbuf.NewHandler(w, false, nil)).(logbuf.Direct)
	if !ok {
		t.Fatal("Writer.Handler over a Direct handler is not Direct")
	}
	if _, ok := h.WithAttrs([]slog.Attr{slog.Int("a", 1)}).(logbuf.Direct); ok {
		t.Fatal("a handler with attributes claims to take hand-formatted lines without them")
	}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	l := h.NewLine(at, slog.LevelInfo, "request")
	l.Int("status", 200)
	_ = h.WriteLine(l)
	if got := out.String(); got != "" {
		t.Fatalf("an info line was written at once: %q", got)
	}
	l = h.NewLine(at, slog.LevelError, "request")
	l.Int("status", 500)
	_ = h.WriteLine(l)
	want := "time=2026-11-22T10:00:00.000Z level=INFO msg=request status=200\n" +
		"time=2026-11-22T10:00:00.000Z level=ERROR msg=request status=500\n"
	if got := out.String(); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
