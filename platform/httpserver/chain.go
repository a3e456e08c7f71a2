package httpserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/logbuf"
)

// An Observer is told of every request: Start when the chain begins, Done
// once the answer is final (the error handler has run), with the time since
// fasthttp began the request. Metrics are one; as a part of the chain they
// read the clock once with the access log rather than once more.
type Observer interface {
	// Start returns what Done is given for the same request.
	Start() int
	Done(c *fiber.Ctx, started, status int, elapsed time.Duration)
}

// chain is the platform's own middleware run as one Fiber handler: request
// id, nosniff, observer (metrics), access log, panic recovery, client
// address, request deadline and body limits, in that order. They were
// eight handlers; every c.Next walks Fiber's route stack from where it
// stopped, and every API route shares one bucket of it (Fiber buckets
// routes by their first three characters, "/ap"), so eight handlers cost
// eight walks, and the values they passed on cost a lookup in the request's
// locals each. As one handler they cost one walk, and the values are plain
// variables.
//
// A part left at its zero value is skipped, which is how BenchmarkMiddleware
// measures them one by one.
type chain struct {
	requestID bool
	noSniff   bool
	// access log: nil for none; direct when its handler formats lines by hand
	log    *slog.Logger
	direct logbuf.Direct
	// observer (metrics) sees the final status, like the access log
	observer Observer
	// recover logs panics here; nil for no recovery
	recover *slog.Logger
	// clientAddress settles the client's address behind these proxies
	clientAddress bool
	proxies       []netip.Prefix
	deadline      time.Duration
	bodies        *BodyLimits
}

func (ch *chain) handle(c *fiber.Ctx) error {
	// The request id: the client's (rid), or one of ours (own) made on the
	// stack and copied into the header and the access line.
	var rid string
	var own [requestIDLen]byte
	if ch.requestID {
		rid = incomingRequestID(c)
		if rid == "" {
			newRequestID(&own)
			c.Response().Header.SetCanonical(headerRequestID, own[:])
		} else {
			c.Set(fiber.HeaderXRequestID, rid)
		}
	}
	if ch.noSniff {
		// Key and value as they go on the wire: no normalizing of the key.
		c.Response().Header.SetCanonical(headerNoSniff, valueNoSniff)
	}
	start := RequestStart(c)
	var started int
	if ch.observer != nil {
		started = ch.observer.Start()
	}
	err := ch.inner(c)
	if ch.log == nil && ch.observer == nil {
		return err
	}
	if err != nil {
		// Let the error handler write the body now so the status is logged.
		if herr := c.App().ErrorHandler(c, err); herr != nil {
			_ = c.SendStatus(fiber.StatusInternalServerError)
		}
	}
	// One reading of the monotonic clock; the wall time follows from the
	// start's (time.Now reads both clocks, ~70 ns here against ~37).
	elapsed := time.Since(start)
	now := start.Add(elapsed)
	if ch.observer != nil {
		ch.observer.Done(c, started, c.Response().StatusCode(), elapsed)
	}
	if ch.log != nil {
		ch.logAccess(c, rid, &own, start, now)
	}
	return nil
}

// inner is everything after the access log; its panics end here.
func (ch *chain) inner(c *fiber.Ctx) (err error) {
	if ch.recover != nil {
		defer func() {
			if r := recover(); r != nil {
				ch.recover.Error("panic in handler", "request_id", requestID(c), "method", c.Method(),
					"path", LoggedPath(c), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = fmt.Errorf("panic: %v", r)
			}
		}()
	}
	if ch.clientAddress && len(ch.proxies) > 0 {
		// Without proxies the client is the peer, which ClientIP reads
		// itself: nothing to keep.
		c.Locals(clientIPKey, settleClientIP(c, ch.proxies).String())
	}
	if ch.deadline > 0 {
		// Handlers make the request's context when they need it
		// (Context); it ends here, panics included.
		defer endContext(c)
	}
	if ch.bodies != nil {
		return ch.bodies.serve(c)
	}
	return c.Next()
}

// Header keys in fasthttp's normal form, set without normalizing them again.
var (
	headerNoSniff, valueNoSniff = []byte(fiber.HeaderXContentTypeOptions), []byte("nosniff")
	headerRequestID             = []byte("X-Request-Id")
)

// maxRequestIDLen bounds a request id a client sends: it is echoed in the
// answer and written in every log line of the request.
const maxRequestIDLen = 128

// incomingRequestID is the client's X-Request-ID when it is one (1 to 128
// printable ASCII characters), so a caller can follow its request through
// our log; anything else is replaced by an id of ours.
func incomingRequestID(c *fiber.Ctx) string {
	id := c.Get(fiber.HeaderXRequestID)
	if len(id) == 0 || len(id) > maxRequestIDLen {
		return ""
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] > '~' {
			return ""
		}
	}
	return id
}

// logAccess writes one line per request, after the error handler has set
// the final status: level info, error for a 5xx other than 501. The request
// id is the client's (rid) or, when rid is empty and the chain made one,
// own. When the logger's handler is logbuf.Direct (the service's, see
// boot.Logger) the line is formatted by hand into a pooled buffer and
// copied into the log before the handler returns, so nothing of the request
// outlives it; any other logger gets the same record through slog.
func (ch *chain) logAccess(c *fiber.Ctx, rid string, own *[requestIDLen]byte, start, now time.Time) {
	status := c.Response().StatusCode()
	level := slog.LevelInfo
	if status >= 500 && status != fiber.StatusNotImplemented {
		level = slog.LevelError
	}
	if rid == "" && !ch.requestID {
		rid = requestID(c)
	}
	if ch.direct != nil {
		// The service's handler does not look at the context.
		if !ch.log.Enabled(context.Background(), level) {
			return
		}
		a := logbuf.Access{
			Time: now, Level: level, Method: c.Method(), Path: LoggedPath(c),
			Status: status, Duration: now.Sub(start), Bytes: responseSize(c),
		}
		if rid == "" && ch.requestID {
			a.OurID, a.Own = *own, true
		} else {
			a.ClientID = rid
		}
		ch.logIP(c, &a)
		_ = ch.direct.WriteAccess(a)
		return
	}
	ctx := c.UserContext()
	if !ch.log.Enabled(ctx, level) {
		return
	}
	if rid == "" && ch.requestID {
		rid = string(own[:])
	}
	ch.log.LogAttrs(ctx, level, "request",
		slog.String("request_id", rid),
		slog.String("method", c.Method()),
		slog.String("path", LoggedPath(c)),
		slog.Int("status", status),
		slog.Duration("duration", now.Sub(start)),
		slog.String("ip", ClientIP(c)),
		slog.Int("bytes", responseSize(c)),
	)
}

// logIP sets the access line's client address: the one settled behind
// the proxies, or the peer's, whose text the connection keeps (the address
// itself for a connection that is not ours, as in benchmarks: no string is
// made for it).
func (ch *chain) logIP(c *fiber.Ctx, a *logbuf.Access) {
	switch lc, ok := c.Context().Conn().(*lingerConn); {
	case ch.clientAddress && len(ch.proxies) > 0:
		a.IP = ClientIP(c)
	case ok && lc.peerText() != "":
		a.IP = lc.peerText()
	default:
		a.Addr = peerAddr(c)
	}
}

// LoggedPath is the request's path as logs show it: a secret in the path
// (the :token of an invitation link) is replaced by "[token]", so a log
// reader cannot accept someone's invitation.
func LoggedPath(c *fiber.Ctx) string {
	path := c.Path()
	if r := c.Route(); r != nil && strings.Contains(r.Path, ":token") {
		if tok := c.Params("token"); tok != "" {
			return strings.Replace(path, tok, "[token]", 1)
		}
	}
	return path
}
