package httpserver

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/gofiber/fiber/v2"
)

// Every request has a deadline, database.timeout after it began, so a query
// cannot hang a request when the database stops answering. Handlers get it
// with Context(c): the context an outer handler set (tracing's span) with
// that deadline, ended when the request is done.
//
// The context is made when a handler first asks for it, and its timer when
// something first waits on it (a query does), so a request answered from
// memory pays for neither. It was made for every request by the chain: an
// allocation, the garbage it became and a user value, about 1,000
// instructions of a 20,000-instruction read (callgrind, GET /countries/DE).
// The price is that handlers must ask for Context(c) rather than
// c.UserContext(), which has no deadline; TestHandlersUseContext holds
// every module to it.

// Context is the context of c's request for work that may block (queries,
// calls out): bounded by the request's deadline, ended when the request is
// done. The same context on every call within a request.
func Context(c *fiber.Ctx) context.Context {
	if l, ok := c.Context().UserValue(requestContextKey).(*lazyDeadline); ok {
		return l
	}
	parent := c.UserContext()
	timeout, ok := deadlines.Load(weak.Make(c.App()))
	if !ok || timeout.(time.Duration) <= 0 {
		return parent // an app without propman's chain, or no deadline
	}
	l := newLazyDeadline(parent, RequestStart(c).Add(timeout.(time.Duration)))
	c.Context().SetUserValue(requestContextKey, l)
	c.SetUserContext(l)
	return l
}

// requestContextKey holds a request's context once made, for Context's
// next call and for the chain, which ends it.
type contextKey struct{}

var requestContextKey = contextKey{}

// deadlines is each app's database.timeout, for Context. An app is not kept
// alive by it: the key is a weak pointer, dropped with the app (tests make
// hundreds of apps).
var deadlines sync.Map // weak.Pointer[fiber.App] -> time.Duration

func setDeadline(app *fiber.App, timeout time.Duration) {
	key := weak.Make(app)
	deadlines.Store(key, timeout)
	runtime.AddCleanup(app, func(k weak.Pointer[fiber.App]) { deadlines.Delete(k) }, key)
}

// endContext ends the request's context, if a handler made one.
func endContext(c *fiber.Ctx) {
	if l, ok := c.Context().UserValue(requestContextKey).(*lazyDeadline); ok {
		l.release()
	}
}

// RequestStart is when fasthttp began handling the request (it read the
// clock then; reading it again costs ~0.1 us on this kind of virtual
// machine), or now when it did not say. The access log, the deadline and
// the metrics all start from it.
func RequestStart(c *fiber.Ctx) time.Time {
	if t := c.Context().Time(); !t.IsZero() {
		return t
	}
	return time.Now()
}

// lazyDeadline is a context.Context with a deadline whose timer starts on
// the first call to Done.
type lazyDeadline struct {
	// values are what WithValue added after the context was made.
	values   atomic.Pointer[ctxValue]
	parent   context.Context
	deadline time.Time
	once     sync.Once
	inner    context.Context
	cancel   context.CancelFunc
}

func newLazyDeadline(parent context.Context, deadline time.Time) *lazyDeadline {
	if d, ok := parent.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	return &lazyDeadline{parent: parent, deadline: deadline}
}

func (l *lazyDeadline) start() {
	l.inner, l.cancel = context.WithDeadline(l.parent, l.deadline)
}

func (l *lazyDeadline) Deadline() (time.Time, bool) { return l.deadline, true }

func (l *lazyDeadline) Done() <-chan struct{} {
	l.once.Do(l.start)
	return l.inner.Done()
}

func (l *lazyDeadline) Err() error {
	l.once.Do(l.start)
	return l.inner.Err()
}

func (l *lazyDeadline) Value(key any) any {
	for v := l.values.Load(); v != nil; v = v.next {
		if v.key == key {
			return v.val
		}
	}
	return l.parent.Value(key)
}

// ctxValue is one value WithValue added, in a list newest first.
type ctxValue struct {
	key, val any
	next     *ctxValue
}

// WithValue makes val the value of key in the context of c's request
// (Context(c)) from now on: the token guard adds the signed-in principal,
// which services read from the context they are given.
func WithValue(c *fiber.Ctx, key, val any) {
	if l, ok := Context(c).(*lazyDeadline); ok {
		for {
			old := l.values.Load()
			if l.values.CompareAndSwap(old, &ctxValue{key: key, val: val, next: old}) {
				return
			}
		}
	}
	c.SetUserContext(context.WithValue(c.UserContext(), key, val))
}

// released stands in for the timer of a context nobody waited on.
var released = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// release ends the context when the request is done, as a cancel would.
func (l *lazyDeadline) release() {
	l.once.Do(func() { l.inner = released })
	if l.cancel != nil {
		l.cancel()
	}
}
