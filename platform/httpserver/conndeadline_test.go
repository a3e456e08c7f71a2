package httpserver

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/config"
)

func TestDeadlineSettle(t *testing.T) {
	var d deadline
	if _, ok := d.settle(); ok {
		t.Fatal("no deadline asked or set, yet one is to be set")
	}

	want := time.Now().Add(16 * time.Second)
	d.at(want)
	set, ok := d.settle()
	if !ok || set.Before(want) || set.Sub(want) > maxDeadlineSlack {
		t.Fatalf("first deadline: set %v (%v), want %v plus at most %v", set, ok, want, maxDeadlineSlack)
	}
	first := set

	// A little later, within the slack: the socket keeps its deadline.
	want = want.Add(d.slack / 2)
	d.at(want)
	if _, ok := d.settle(); ok {
		t.Fatal("a deadline within the slack was set again")
	}

	// Later than what the socket has: it would cut too soon.
	want = first.Add(time.Millisecond)
	d.at(want)
	if set, ok := d.settle(); !ok || set.Before(want) {
		t.Fatalf("a later deadline: set %v (%v), want at least %v", set, ok, want)
	}

	// Much earlier (the read deadline after the idle one): set at once.
	want = time.Now().Add(time.Second)
	d.at(want)
	if set, ok := d.settle(); !ok || set.Before(want) || set.Sub(want) > time.Second/deadlineSlackShare {
		t.Fatalf("an earlier deadline: set %v (%v), want %v plus at most 1/16 s", set, ok, want)
	}

	// From a timeout: as far ahead as it says, and no earlier.
	before := time.Now()
	d.after(10 * time.Second)
	set, ok = d.settle()
	if !ok || set.Before(before.Add(10*time.Second)) || set.After(time.Now().Add(10*time.Second+maxDeadlineSlack)) {
		t.Fatalf("a timeout of 10s: set %v (%v) at %v", set, ok, before)
	}

	// Past already: set as asked, so the next Read fails at once.
	want = time.Now().Add(-time.Second)
	d.at(want)
	if set, ok := d.settle(); !ok || !set.Equal(want) {
		t.Fatalf("a past deadline: set %v (%v), want %v", set, ok, want)
	}

	// No deadline: cleared once, then nothing to do.
	d.at(time.Time{})
	if set, ok := d.settle(); !ok || !set.IsZero() {
		t.Fatalf("clearing: set %v (%v), want the zero time", set, ok)
	}
	if _, ok := d.settle(); ok {
		t.Fatal("a cleared deadline was cleared again")
	}
	d.after(0)
	if _, ok := d.settle(); ok {
		t.Fatal("no timeout set a deadline")
	}
}

// countingListener counts the deadlines set on the sockets it accepts.
type countingListener struct {
	net.Listener
	sets *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{Conn: c, sets: l.sets}, nil
}

type countingConn struct {
	net.Conn
	sets *atomic.Int64
}

func (c countingConn) SetDeadline(t time.Time) error {
	c.sets.Add(1)
	return c.Conn.SetDeadline(t)
}

func (c countingConn) SetReadDeadline(t time.Time) error {
	c.sets.Add(1)
	return c.Conn.SetReadDeadline(t)
}

func (c countingConn) SetWriteDeadline(t time.Time) error {
	c.sets.Add(1)
	return c.Conn.SetWriteDeadline(t)
}

// A keep-alive connection sends 300 requests: each has three deadlines
// (idle, read, write), the socket gets a few in all; and the idle timeout
// still closes the connection once it has waited that long, not before.
// The read and write timeouts are long, so that only the idle deadline can
// close it within the test's bound.
func TestKeepAliveSetsFewDeadlines(t *testing.T) {
	cfg, err := config.Load(config.Options{Overrides: map[string]any{
		"http.readtimeout": "1m", "http.writetimeout": "1m", "http.idletimeout": "2s",
	}})
	if err != nil {
		t.Fatal(err)
	}
	app, err := New(cfg.HTTP, cfg.Database.Timeout, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	app.Get("/ping", func(c *fiber.Ctx) error { return c.SendString("pong") })
	app.Get("/ip", func(c *fiber.Ctx) error { return c.SendString(ClientIP(c)) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var sets atomic.Int64
	go func() { _ = app.Listener(Linger(countingListener{Listener: ln, sets: &sets}, cfg.HTTP)) }()
	t.Cleanup(func() { _ = app.Shutdown() })

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	r := bufio.NewReader(conn)
	get := func() error { return getPath(conn, r, "/ping", "pong") }
	// The peer's address, as the connection keeps it.
	if err := getPath(conn, r, "/ip", "127.0.0.1"); err != nil {
		t.Fatal(err)
	}
	const requests = 300
	for i := range requests {
		if err := get(); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	// One of each at the start, one more of each per second the requests
	// took; fasthttp alone would have set 900.
	if n := sets.Load(); n > 10 {
		t.Errorf("%d socket deadlines set for %d keep-alive requests, want a few", n, requests)
	}

	// Idle for half the idle timeout: still served.
	time.Sleep(time.Second)
	if err := get(); err != nil {
		t.Fatalf("after 1s idle (idletimeout 2s): %v", err)
	}
	// Then idle past it: the server closes the connection.
	closed := make(chan error, 1)
	go func() {
		_, err := r.ReadByte()
		closed <- err
	}()
	select {
	case err := <-closed:
		if !errors.Is(err, io.EOF) {
			t.Fatalf("idle connection ended with %v, want the server's close (EOF)", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("an idle connection is open 20s after http.idletimeout (2s)")
	}
}

// getPath sends GET path on conn and checks the answer is 200 with body
// want.
func getPath(conn net.Conn, r *bufio.Reader, path, want string) error {
	if _, err := io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: propman\r\n\r\n"); err != nil {
		return err
	}
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err == nil && (res.StatusCode != http.StatusOK || string(body) != want) {
		err = errors.New(res.Status + " " + string(body))
	}
	return err
}

// With lingering off, a connection marked to linger closes at once.
func TestLingerOffClosesAtOnce(t *testing.T) {
	cfg, err := config.Load(config.Options{Overrides: map[string]any{"http.lingertime": "0s"}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lln := Linger(ln, cfg.HTTP)
	defer lln.Close()
	client := make(chan net.Conn, 1)
	go func() {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Error(err)
		}
		client <- c
	}()
	c, err := lln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	peer := <-client
	if peer == nil {
		t.FailNow()
	}
	defer peer.Close()
	lc, ok := c.(*lingerConn)
	if !ok {
		t.Fatalf("accepted a %T, want *lingerConn", c)
	}
	lc.lingerOnClose()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := lc.Conn.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("write after Close: %v, want net.ErrClosed (closed at once)", err)
	}
	if n := lln.Lingering(); n != 0 {
		t.Fatalf("%d connections draining with lingering off", n)
	}
}
