package httpserver

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/bytebufferpool"
	"github.com/valyala/fasthttp"

	"github.com/propman/propman/platform/apierror"
)

// The server reads request bodies as streams (fasthttp's StreamRequestBody),
// so that a route may take a file larger than http.bodylimit without holding
// it in memory. Streaming switches off fasthttp's own body limit, so
// BodyLimits puts it back: before any route runs, every request's body is
// read into memory up to http.bodylimit and refused with 413 above it, as
// fasthttp did, unless the request is for a route declared with Stream. Such
// a route reads the body itself through BodyStream, which fails with
// ErrBodyTooLarge after the route's own limit.

// ErrBodyTooLarge is returned by a BodyStream reader after its limit.
var ErrBodyTooLarge = errors.New("request body larger than the route's limit")

// BodyLimits is the body-size policy of one server: http.bodylimit for every
// route, a larger limit and a streamed body for the routes declared with
// Stream.
type BodyLimits struct {
	limit int

	// The stream routes, replaced whole by Stream (under mu) and read
	// without a lock: every request asks (hasMethod), and a read lock's
	// counter, written by both CPUs on every request, moved between them.
	mu      sync.Mutex
	streams atomic.Pointer[[]streamRoute]
}

type streamRoute struct {
	method      string
	segments    []string
	limit       int64
	readTimeout time.Duration
}

// NewBodyLimits returns the policy with limit (http.bodylimit) for every route.
func NewBodyLimits(limit int) *BodyLimits { return &BodyLimits{limit: limit} }

// Stream declares that method path (Fiber syntax under the server root, e.g.
// "/api/v1/properties/:propertyId/documents") reads its body with BodyStream,
// up to limit bytes. readTimeout, when above 0, replaces http.readtimeout
// for such a request (a large body takes longer to send). Declare it before
// the route serves requests.
func (b *BodyLimits) Stream(method, path string, limit int64, readTimeout time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	routes := append(slices.Clone(b.routes()), streamRoute{method: method, segments: splitPath(path), limit: limit, readTimeout: readTimeout})
	b.streams.Store(&routes)
}

// routes are the stream routes declared so far.
func (b *BodyLimits) routes() []streamRoute {
	if r := b.streams.Load(); r != nil {
		return *r
	}
	return nil
}

// headerReceived gives a stream route its read timeout; fasthttp calls it
// once a request's header is read, before its body.
func (b *BodyLimits) headerReceived(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	// Most requests (every GET) have a method no stream route has: they
	// are let through before their path is copied and split.
	if !b.hasMethod(h.Method()) {
		return fasthttp.RequestConfig{}
	}
	path, _, _ := strings.Cut(string(h.RequestURI()), "?")
	if r, ok := b.match(string(h.Method()), path); ok && r.readTimeout > 0 {
		return fasthttp.RequestConfig{ReadTimeout: r.readTimeout}
	}
	return fasthttp.RequestConfig{}
}

// splitPath is path's segments, lower-cased and without a trailing slash, as
// Fiber's default router (case-insensitive, not strict) compares them.
func splitPath(path string) []string {
	return strings.Split(strings.TrimSuffix(strings.ToLower(path), "/"), "/")
}

// hasMethod reports whether any stream route takes method. The comparison
// of string(method) does not copy it.
func (b *BodyLimits) hasMethod(method []byte) bool {
	for _, r := range b.routes() {
		if r.method == string(method) {
			return true
		}
	}
	return false
}

// match returns the stream route method path is for.
func (b *BodyLimits) match(method, path string) (streamRoute, bool) {
	routes := b.routes()
	if len(routes) == 0 {
		return streamRoute{}, false
	}
	segs := splitPath(path)
next:
	for _, r := range routes {
		if r.method != method || len(r.segments) != len(segs) {
			continue
		}
		for i, s := range r.segments {
			if strings.HasPrefix(s, ":") {
				if segs[i] == "" {
					continue next
				}
				continue
			}
			if s != segs[i] {
				continue next
			}
		}
		return r, true
	}
	return streamRoute{}, false
}

type streamKey struct{}

var errTooLarge = apierror.New(fiber.StatusRequestEntityTooLarge, "payload_too_large", "The request body is larger than the limit.")

// serve enforces the policy and runs the rest of the chain (see chain).
func (b *BodyLimits) serve(c *fiber.Ctx) error {
	stream := c.Context().RequestBodyStream()
	if stream == nil {
		// No stream: fasthttp already holds the whole body (an empty one,
		// or a test's app.Test). A streamed route still reads it through
		// BodyStream, under its own limit, and nothing is left unread.
		// Only a method some stream route takes is matched: a GET is not
		// made to split its path.
		if b.hasMethod(c.Request().Header.Method()) {
			if r, ok := b.match(c.Method(), c.Path()); ok {
				c.Locals(streamKey{}, &limitedStream{r: bytes.NewReader(c.Request().Body()), left: r.limit})
			}
		}
		return c.Next()
	}
	req := c.Request()
	if r, ok := b.match(c.Method(), c.Path()); ok {
		s := &limitedStream{r: stream, left: r.limit}
		c.Locals(streamKey{}, s)
		err := c.Next()
		if !s.done {
			// The rest of the body is still on the connection: it must
			// not be read as the next request.
			closeAndLinger(c)
		}
		return err
	}
	n := req.Header.ContentLength()
	switch {
	case n > b.limit:
		closeAndLinger(c)
		return errTooLarge
	case n >= 0:
		// A known length within the limit: fasthttp reads exactly that
		// much into its pooled buffer.
		_ = req.Body()
	default:
		// Chunked: read one byte more than the limit to know.
		buf := bytebufferpool.Get()
		defer bytebufferpool.Put(buf)
		_, err := buf.ReadFrom(io.LimitReader(stream, int64(b.limit)+1))
		if err != nil {
			closeAndLinger(c)
			return apierror.New(fiber.StatusBadRequest, "validation_failed", "The request body could not be read.")
		}
		if buf.Len() > b.limit {
			closeAndLinger(c)
			return errTooLarge
		}
		req.SetBody(buf.B)
	}
	return c.Next()
}

// closeAndLinger closes the connection after the answer, with the unread
// rest of the body still coming: the lingering close (linger.go) drains it
// for a bounded time, so the client reads the answer rather than a reset.
func closeAndLinger(c *fiber.Ctx) {
	c.Context().SetConnectionClose()
	if l, ok := c.Context().Conn().(lingerer); ok {
		l.lingerOnClose()
	}
}

// BodyStream returns the request body of a route declared with Stream: a
// reader that fails with ErrBodyTooLarge once it has given the route's limit
// and the body goes on. ok is false on any other route.
func BodyStream(c *fiber.Ctx) (r io.Reader, ok bool) {
	s, ok := c.Locals(streamKey{}).(*limitedStream)
	return s, ok
}

// limitedStream gives at most left bytes of r, then ErrBodyTooLarge if r has
// more. done records that r was read to its end.
type limitedStream struct {
	r    io.Reader
	left int64
	done bool
	one  [1]byte
}

func (s *limitedStream) Read(p []byte) (int, error) {
	if s.done {
		return 0, io.EOF
	}
	if s.left <= 0 {
		// At the limit: the body must end here.
		n, err := s.r.Read(s.one[:])
		if n > 0 {
			return 0, ErrBodyTooLarge
		}
		if errors.Is(err, io.EOF) {
			s.done = true
			return 0, io.EOF
		}
		return 0, err
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	n, err := s.r.Read(p)
	s.left -= int64(n)
	if errors.Is(err, io.EOF) {
		s.done = true
	}
	return n, err
}
