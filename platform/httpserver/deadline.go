package httpserver

import (
	"context"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
)

// The request's deadline (see chain) gives every request a context that
// ends after database.timeout, so a query cannot hang a request when the
// database stops answering. The timer behind it is made only when something
// waits on the context (a query does; an answer served from memory does
// not), which keeps read-mostly routes as cheap as a bare handler. The
// context set by an outer handler before it (tracing's span) is its parent:
// its values are seen through it, and its end ends it.

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

func (l *lazyDeadline) Value(key any) any { return l.parent.Value(key) }

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
