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

// accessViaSlog writes the record of a through slog's own handler.
func accessViaSlog(t testing.TB, json bool, a logbuf.Access) string {
	t.Helper()
	var out bytes.Buffer
	var h slog.Handler = slog.NewTextHandler(&out, nil)
	if json {
		h = slog.NewJSONHandler(&out, nil)
	}
	id := a.ClientID
	if a.Own {
		id = string(a.OurID[:])
	}
	r := slog.NewRecord(a.Time, a.Level, "request", 0)
	ip := a.IP
	if ip == "" {
		ip = a.Addr.String()
	}
	r.AddAttrs(slog.String("request_id", id), slog.String("method", a.Method), slog.String("path", a.Path),
		slog.Int("status", a.Status), slog.Duration("duration", a.Duration), slog.String("ip", ip),
		slog.Int("bytes", a.Bytes))
	if err := h.Handle(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func accessViaDirect(t testing.TB, json bool, a logbuf.Access) string {
	t.Helper()
	var out bytes.Buffer
	if err := logbuf.NewHandler(&out, json, nil).(logbuf.Direct).WriteAccess(a); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestAccessMatchesSlog: WriteAccess writes, in both formats, the line
// slog writes for the same record: our ids and the client's, odd methods,
// paths and addresses that need quoting or escaping (a suspect byte in the
// first eight, which are checked together, past them and in the tail),
// every level, statuses and sizes across the digit-by-digit cut, durations
// of every unit, times in other zones, on whole milliseconds and within the
// second of the line before.
func TestAccessMatchesSlog(t *testing.T) {
	var ours [36]byte
	copy(ours[:], "0f8e3c1a-5b2d-4e6f-8a9b-0c1d2e3f4a5b")
	east := time.FixedZone("", 5*3600+30*60)
	times := []time.Time{
		time.Now(), // with a monotonic reading
		time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 22, 10, 0, 0, 120_000_000, time.UTC),
		// the same second as the line before, in another zone, then in
		// the same zone (the text format keeps the last second formatted),
		// milliseconds below 100 and at the end of the second
		time.Date(2026, 11, 22, 10, 0, 0, 120_000_000, time.UTC).In(east),
		time.Date(2026, 11, 22, 10, 0, 0, 7_000_000, east),
		time.Date(2026, 11, 22, 10, 0, 0, 999_999_999, east),
		time.Date(2026, 1, 2, 3, 4, 5, 6, time.Local),
	}
	paths := []string{
		"/api/v1/countries/DE", "/", "", " ", "a b", "a=b", `q"uote`, `back\slash`, "tab\there", "new\nline",
		"\x00\x1f\x7f", "ümlaut/日本", "\xff\xfe", "bad\xc3", "\u2028\u2029", "\u00a0nbsp", "\u200bzero",
		"<script>&amp;", "/x?y=1&z=2", strings.Repeat("é", 3000),
		"/api/v1/countries/D E", "/api/v1/x=y/abcdefgh", `/api/v1/"q"/abcdefgh`, "/api/v1/\x01/abcdefgh",
		"/api/v1/ü/abcdefgh", "/api/v1/abcdefg\x7f", "/api/v1/abcdefgh/a=", `/api/v1/abcdefgh/"`, "/api/v1/abcdefgh/\t",
		"/api/v1/abcdefgh/ÿ", "/api/v1/abcdefgh/\xff", "/api/v1/\x85\x9f/abcdefgh",
	}
	clientIDs := []string{"", "abc-123", "with space", `q"uote`, "ümlaut", "a=b"}
	methods := []string{"GET", "POST", "M-SEARCH", "GE T", "\xff"}
	ips := []string{"127.0.0.1", "2001:db8::1", "fe80::1%eth0", "fe80::1%a b", ""}
	addrs := []netip.Addr{netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("2001:db8::1"),
		netip.MustParseAddr("::ffff:192.0.2.1"), netip.MustParseAddr("fe80::1%eth0"),
		netip.MustParseAddr("fe80::1%a b=\"c\""), {}}
	ints := []int{0, 7, 42, 200, 999, 1000, 1234567, -1}
	durs := []time.Duration{0, 1, 999, 187300, 1500 * time.Microsecond, 1_234_567, 2*time.Second + 3, -5 * time.Millisecond, 90 * time.Minute}
	levels := []slog.Level{slog.LevelInfo, slog.LevelError, slog.LevelWarn, slog.LevelDebug, slog.LevelInfo + 2}
	n := 0
	for _, json := range []bool{false, true} {
		for i, at := range times {
			for j, p := range paths {
				k := i*len(paths) + j
				a := logbuf.Access{
					Time: at, Level: levels[k%len(levels)], Method: methods[k%len(methods)], Path: p,
					Status: ints[k%len(ints)], Duration: durs[k%len(durs)], IP: ips[k%len(ips)], Bytes: ints[(k+3)%len(ints)],
				}
				if k%2 == 1 {
					// The address itself rather than its text.
					a.IP, a.Addr = "", addrs[k/2%len(addrs)]
				}
				if cid := clientIDs[k%len(clientIDs)]; cid == "" {
					a.OurID, a.Own = ours, true
				} else {
					a.ClientID = cid
				}
				if got, want := accessViaDirect(t, json, a), accessViaSlog(t, json, a); got != want {
					t.Errorf("json=%v:\n got %q\nwant %q", json, got, want)
				}
				n++
			}
		}
	}
	if n < 400 {
		t.Fatalf("only %d records checked", n)
	}
}

// TestDirectUrgentAccess: through a Writer, an info line waits and an
// error line is written out at once with what waited, as records are.
func TestDirectUrgentAccess(t *testing.T) {
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
	a := logbuf.Access{Time: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Level: slog.LevelInfo,
		ClientID: "r1", Method: "GET", Path: "/", Status: 200, IP: "192.0.2.1"}
	_ = h.WriteAccess(a)
	if got := out.String(); got != "" {
		t.Fatalf("an info line was written at once: %q", got)
	}
	a.Level, a.ClientID, a.Status = slog.LevelError, "r2", 500
	_ = h.WriteAccess(a)
	want := "time=2026-11-22T10:00:00.000Z level=INFO msg=request request_id=r1 method=GET path=/ status=200 duration=0s ip=192.0.2.1 bytes=0\n" +
		"time=2026-11-22T10:00:00.000Z level=ERROR msg=request request_id=r2 method=GET path=/ status=500 duration=0s ip=192.0.2.1 bytes=0\n"
	if got := out.String(); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func FuzzAccessMatchesSlog(f *testing.F) {
	f.Add("abc", "GET", "/api/v1/countries/DE", "127.0.0.1", int64(1_700_000_000_123_456_789), int64(187300), 200)
	f.Add("", "P\"", "/a b=\"c\"\\\x00\xff\u2028", "fe80::1%x y", int64(0), int64(-7), -1)
	f.Fuzz(func(t *testing.T, cid, method, path, ip string, unixNano, d int64, n int) {
		at := time.Unix(0, unixNano).In(time.FixedZone("", int(unixNano%50_000)))
		if y := at.Year(); y < 0 || y > 9999 {
			t.Skip() // slog writes an error in place of such a time
		}
		a := logbuf.Access{Time: at, Level: slog.LevelInfo, ClientID: cid, Method: method, Path: path,
			Status: n, Duration: time.Duration(d), IP: ip, Bytes: n}
		for _, json := range []bool{false, true} {
			if got, want := accessViaDirect(t, json, a), accessViaSlog(t, json, a); got != want {
				t.Fatalf("json=%v:\n got %q\nwant %q", json, got, want)
			}
		}
	})
}
