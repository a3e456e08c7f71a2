package httpserver

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/config"
)

// The connections Linger wraps keep http.readtimeout, writetimeout and
// idletimeout themselves (the server has none): these tests hold them to
// what fasthttp did with the timeouts, at the points where the connection
// tells the phases of a request apart.

// timeoutServer serves GET /ping, GET /big (bigBody bytes) and POST /upload
// (a stream route with its own read timeout of uploadTimeout) through
// Linger, with the http.* settings in overrides.
func timeoutServer(t *testing.T, overrides map[string]any) string {
	t.Helper()
	cfg, err := config.Load(config.Options{Overrides: overrides})
	if err != nil {
		t.Fatal(err)
	}
	app, bodies, err := NewWithBodyLimits(cfg.HTTP, cfg.Database.Timeout, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("x"), bigBody)
	app.Get("/ping", func(c *fiber.Ctx) error { return c.SendString("pong") })
	app.Get("/big", func(c *fiber.Ctx) error { return c.Send(big) })
	bodies.Stream(fiber.MethodPost, "/upload", 1<<20, uploadTimeout)
	app.Post("/upload", func(c *fiber.Ctx) error {
		body, ok := BodyStream(c)
		if !ok {
			return errors.New("no body stream")
		}
		n, err := io.Copy(io.Discard, body)
		if err != nil {
			return err
		}
		return c.SendString(strconv.FormatInt(n, 10))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = app.Listener(Linger(ln, cfg.HTTP)) }()
	t.Cleanup(func() { _ = app.Shutdown() })
	return ln.Addr().String()
}

const (
	bigBody       = 64 << 20
	uploadTimeout = 20 * time.Second
)

// keptAlive dials addr and has one request answered on the connection, so
// the next one is a keep-alive request: it begins in the Read that waited
// for it (idletimeout), not in a connection's first Read.
func keptAlive(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	r := bufio.NewReader(conn)
	if err := getPath(conn, r, "/ping", "pong"); err != nil {
		t.Fatal(err)
	}
	return conn, r
}

// waitCut sends with send until the server cuts the connection, and fails
// when it is still open after within.
func waitCut(t *testing.T, within time.Duration, what string, send func() error) {
	t.Helper()
	cut := make(chan error, 1)
	go func() {
		var err error
		for err == nil {
			err = send()
		}
		cut <- err
	}()
	select {
	case <-cut:
	case <-time.After(within):
		t.Fatalf("%s: the connection is still open after %s", what, within)
	}
}

// A keep-alive request sent a byte at a time is cut at http.readtimeout
// from its first byte, not at idletimeout (a minute here): the deadline
// the connection had while it waited is replaced once the request begins.
func TestSlowKeepAliveRequestCutAtReadTimeout(t *testing.T) {
	addr := timeoutServer(t, map[string]any{"http.readtimeout": "300ms", "http.idletimeout": "1m"})
	conn, _ := keptAlive(t, addr)
	head := "GET /ping HTTP/1.1\r\nHost: propman\r\n"
	i := 0
	// readtimeout, plus at most a second of slack, plus time to notice.
	waitCut(t, 10*time.Second, "a keep-alive request sent a byte every 10ms", func() error {
		b := "X"
		if i < len(head) {
			b = head[i : i+1]
		}
		i++
		_, err := io.WriteString(conn, b)
		time.Sleep(10 * time.Millisecond)
		return err
	})
}

// A client that asks for a large answer and does not read it is cut at
// http.writetimeout: it gets part of the answer, then the end.
func TestStalledReaderCutAtWriteTimeout(t *testing.T) {
	addr := timeoutServer(t, map[string]any{"http.writetimeout": "300ms"})
	conn, r := keptAlive(t, addr)
	if _, err := io.WriteString(conn, "GET /big HTTP/1.1\r\nHost: propman\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// Longer than writetimeout and its slack: the server gives up on the
	// write meanwhile. Without the timeout it would wait for ever and the
	// whole answer would arrive below.
	time.Sleep(3 * time.Second)
	_ = conn.SetReadDeadline(time.Now().Add(time.Minute))
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		return // cut inside the header: as good
	}
	n, err := io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err == nil || n >= bigBody {
		t.Fatalf("read %d of %d bytes, error %v: the stalled connection was not cut at http.writetimeout", n, bigBody, err)
	}
}

// A stream route's own read timeout (BodyLimits.Stream) replaces
// http.readtimeout for the rest of its request, on a keep-alive
// connection too: an upload trickling for longer than readtimeout is read
// to the end and answered.
func TestStreamRouteKeepsItsReadTimeout(t *testing.T) {
	addr := timeoutServer(t, map[string]any{"http.readtimeout": "300ms", "http.idletimeout": "1m"})
	conn, r := keptAlive(t, addr)
	const size, chunk = 100, 10
	if _, err := io.WriteString(conn, "POST /upload HTTP/1.1\r\nHost: propman\r\nContent-Type: application/octet-stream\r\n"+
		"Content-Length: "+strconv.Itoa(size)+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// 1.5 s in all, five times readtimeout.
	for range size / chunk {
		time.Sleep(150 * time.Millisecond)
		if _, err := conn.Write([]byte(strings.Repeat("u", chunk))); err != nil {
			t.Fatalf("the upload was cut while sending: %v", err)
		}
	}
	_ = conn.SetReadDeadline(time.Now().Add(time.Minute))
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("no answer to a slow upload within its own timeout: %v", err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK || string(body) != strconv.Itoa(size) {
		t.Fatalf("status %d body %q err %v, want 200 and %d", res.StatusCode, body, err, size)
	}
	// And the next request on the connection has readtimeout again.
	if err := getPath(conn, r, "/ping", "pong"); err != nil {
		t.Fatalf("the request after the upload: %v", err)
	}
}
