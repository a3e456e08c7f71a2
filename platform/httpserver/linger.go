package httpserver

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/propman/propman/platform/config"
)

// Lingering close.
//
// When fasthttp refuses a request it has not read to the end (a body over
// http.bodylimit: 413, headers over the read buffer: 431, a malformed
// request: 400), it writes the answer and closes the connection while the
// client may still be sending. Data arriving at a
// closed socket, or left unread in it at close, makes the kernel answer with
// a reset, and a client busy writing its body then sees "connection reset" or
// "broken pipe" instead of the 413: a browser shows a network error.
//
// So, as nginx's lingering_close and Go's net/http do, such a connection is
// not closed at once: it is half-closed (the client gets the answer and then
// end of file), and what the client still sends is read and thrown away, at
// most http.lingerbytes bytes and at most http.lingertime in all (one
// absolute deadline, so a client trickling a byte at a time is cut at
// lingertime all the same), and then it is closed. By then the client has
// read the answer, or has stopped sending, or has used up its allowance.
//
// Which connections linger: only those fasthttp's error handler has seen,
// that is the connections it closes after refusing a request it was still
// reading, and of those not the ones that timed out or broke: a client too
// slow for http.readtimeout (a slowloris) is cut at readtimeout as before,
// not given lingertime more, and a broken connection has nothing to drain.
// Every other close leaves nothing unread behind: a keep-alive
// connection that timed out, a client that hung up, a response with
// "Connection: close" to a request whose body was read whole. Lingering on
// every close instead would cost a syscall and a goroutine on each of them,
// and would keep connections the server chose to drop (idle ones at
// shutdown) for no one's benefit. Marking costs nothing on the normal path.
//
// A drain runs in a goroutine of its own, so fasthttp's worker is free at
// once and Close never blocks its caller. At most maxLingering drains run
// at a time; above that a connection is closed at once, as before, so a
// flood of oversized requests cannot pile up goroutines and sockets beyond
// what the server would hold anyway.

// maxLingering bounds the drains running at once. Each holds a goroutine, a
// socket and a read buffer (lingerBufSize) for at most http.lingertime.
const maxLingering = 1024

// lingerBufSize is the read buffer of one drain.
const lingerBufSize = 16 << 10

var lingerBufs = sync.Pool{New: func() any { b := make([]byte, lingerBufSize); return &b }}

// lingerer is a connection that can be told to linger when it is closed.
type lingerer interface{ lingerOnClose() }

// lingerOnReadError makes the connections of app linger on close after
// fasthttp refused a request it was reading (fasthttp calls the server's
// error handler only then, and always closes the connection after it).
// Fiber's own error mapping (413, 431, ...) and the app's ErrorHandler
// still write the answer.
func lingerOnReadError(app *fiber.App) {
	srv := app.Server()
	answer := srv.ErrorHandler
	srv.ErrorHandler = func(ctx *fasthttp.RequestCtx, err error) {
		if l, ok := ctx.Conn().(lingerer); ok && lingerAfter(err) {
			l.lingerOnClose()
		}
		answer(ctx, err)
	}
}

// lingerAfter reports whether a refusal for err is worth a drain: not after
// a timeout (the client is slow, not busy sending; Fiber answers 408 for the
// same tests) nor after a network error (the connection is gone).
func lingerAfter(err error) bool {
	var netErr net.Error
	return !errors.As(err, &netErr) && !strings.Contains(err.Error(), "timeout")
}

// LingerListener wraps the server's listener so that the connections
// fasthttp closes after refusing a request drain before they close, and
// their deadlines are set only when they matter (conndeadline.go). Give it
// to app.Listener, and call Shutdown after app.Shutdown.
type LingerListener struct {
	net.Listener
	bytes    int64
	time     time.Duration
	timeouts connTimeouts

	mu     sync.Mutex
	active map[*lingerConn]struct{}
	idle   chan struct{} // closed when active becomes empty; nil when no one waits
	cut    bool          // set by Shutdown when its context ended: no new drains
}

// Linger wraps ln with the limits http.lingerbytes and http.lingertime;
// either at 0 turns lingering off. Its connections also keep
// http.readtimeout, writetimeout and idletimeout (conndeadline.go): the
// server New makes leaves them to the connection, so serve it through
// Linger.
func Linger(ln net.Listener, cfg config.HTTP) *LingerListener {
	return &LingerListener{Listener: ln, bytes: cfg.LingerBytes, time: cfg.LingerTime,
		timeouts: connTimeouts{Read: cfg.ReadTimeout, Write: cfg.WriteTimeout, Idle: cfg.IdleTimeout},
		active:   map[*lingerConn]struct{}{}}
}

// Accept returns the next connection, wrapped.
func (l *LingerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return c, err
	}
	return &lingerConn{Conn: c, l: l, t: l.timeouts}, nil
}

func (l *LingerListener) lingering() bool { return l.bytes > 0 && l.time > 0 }

// Lingering reports how many connections are draining now.
func (l *LingerListener) Lingering() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.active)
}

// Shutdown waits for the drains under way to end. When ctx ends first it
// cuts them (each closes at once, unread data and all) and refuses new ones,
// then waits for their goroutines, which takes no longer than a read takes
// to return; it then returns ctx's error. Call it after the server's own
// shutdown with what is left of http.shutdowntimeout, so that no drain
// outlives the server.
func (l *LingerListener) Shutdown(ctx context.Context) error {
	var err error
	for {
		l.mu.Lock()
		if ctx.Err() != nil && !l.cut {
			l.cut = true
			for c := range l.active {
				// The socket's own deadline: it stops the drain's Read
				// under way.
				_ = c.Conn.SetReadDeadline(aLongTimeAgo)
				err = ctx.Err()
			}
		}
		if len(l.active) == 0 {
			l.mu.Unlock()
			return err
		}
		if l.idle == nil {
			l.idle = make(chan struct{})
		}
		idle, cut := l.idle, l.cut
		l.mu.Unlock()
		if cut {
			<-idle
			continue
		}
		select {
		case <-idle:
		case <-ctx.Done():
		}
	}
}

var aLongTimeAgo = time.Unix(1, 0)

// begin registers c as draining and sets its deadline; false when it must
// close at once (too many drains, or shutdown cut them).
func (l *LingerListener) begin(c *lingerConn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cut || len(l.active) >= maxLingering {
		return false
	}
	if err := c.Conn.SetReadDeadline(time.Now().Add(l.time)); err != nil {
		return false
	}
	l.active[c] = struct{}{}
	return true
}

func (l *LingerListener) end(c *lingerConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.active, c)
	if len(l.active) == 0 && l.idle != nil {
		close(l.idle)
		l.idle = nil
	}
}

// lingerConn is an accepted connection that drains before it closes when
// it was marked, and settles its deadlines before it reads or writes.
type lingerConn struct {
	net.Conn
	l      *LingerListener
	linger atomic.Bool
	// Read and write deadlines, kept by the goroutine serving the
	// connection (conndeadline.go).
	t       connTimeouts
	phase   phase
	rd, wd  deadline
	wdFixed bool // wd.want was set by SetWriteDeadline for the next answer
	// addr is the peer's address, read once: the access line and the
	// client address want it on every request.
	addr     netip.Addr
	addrText string // addr's text, for the access line; empty when not an IP
	addrRead bool
}

// peer is the peer's IP address (an IPv4 one unmapped), or the zero Addr
// when it is not an IP connection. Only the goroutine serving the
// connection calls it.
func (c *lingerConn) peer() netip.Addr {
	if !c.addrRead {
		c.addrRead = true
		// As fasthttp's RemoteIP gives it: no zone.
		if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
			ip, _ := netip.AddrFromSlice(a.IP)
			c.addr = ip.Unmap()
			if c.addr.IsValid() {
				c.addrText = c.addr.String()
			}
		}
	}
	return c.addr
}

// peerText is peer's text, made once per connection; empty when the peer
// has no IP address.
func (c *lingerConn) peerText() string {
	c.peer()
	return c.addrText
}

func (c *lingerConn) lingerOnClose() {
	if c.l.lingering() {
		c.linger.Store(true)
	}
}

func (c *lingerConn) Read(p []byte) (int, error) {
	c.beforeRead()
	if t, ok := c.rd.settle(); ok {
		if err := c.Conn.SetReadDeadline(t); err != nil {
			return 0, err
		}
	}
	n, err := c.Conn.Read(p)
	c.afterRead(n)
	return n, err
}

func (c *lingerConn) Write(p []byte) (int, error) {
	c.beforeWrite()
	if t, ok := c.wd.settle(); ok {
		if err := c.Conn.SetWriteDeadline(t); err != nil {
			return 0, err
		}
	}
	return c.Conn.Write(p)
}

// SetDeadline, SetReadDeadline and SetWriteDeadline keep the deadline for
// the next Reads or Writes, in place of the timeouts': a read deadline for
// the rest of the request, a write deadline for the next answer. They do
// not stop a Read or Write under way.
func (c *lingerConn) SetDeadline(t time.Time) error {
	_ = c.SetReadDeadline(t)
	return c.SetWriteDeadline(t)
}

func (c *lingerConn) SetReadDeadline(t time.Time) error {
	c.rd.at(t)
	c.phase = phaseReading
	return nil
}

func (c *lingerConn) SetWriteDeadline(t time.Time) error {
	c.wd.at(t)
	c.wdFixed = c.phase != phaseWriting
	return nil
}

// Close closes the connection, or, when it was marked, half-closes it and
// leaves the rest to a drain in the background.
func (c *lingerConn) Close() error {
	if !c.linger.CompareAndSwap(true, false) {
		return c.Conn.Close()
	}
	// fasthttp has flushed the answer; the FIN follows it.
	cw, ok := c.Conn.(interface{ CloseWrite() error })
	if !ok || cw.CloseWrite() != nil || !c.l.begin(c) {
		return c.Conn.Close()
	}
	go c.drain()
	return nil
}

// drain reads and discards until the client stops (end of file or an
// error), the byte allowance is used up or the deadline set by begin
// passes, then closes.
func (c *lingerConn) drain() {
	defer c.l.end(c)
	buf := lingerBufs.Get().(*[]byte)
	defer lingerBufs.Put(buf)
	for left := c.l.bytes; left > 0; {
		b := *buf
		if int64(len(b)) > left {
			b = b[:left]
		}
		n, err := c.Conn.Read(b)
		left -= int64(n)
		if err != nil {
			break
		}
	}
	_ = c.Conn.Close()
}
