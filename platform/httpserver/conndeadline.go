package httpserver

import "time"

// Socket deadlines: the connection enforces http.readtimeout, writetimeout
// and idletimeout itself, and sets them on the socket when they matter.
//
// fasthttp, given the timeouts, moves a keep-alive connection's deadlines
// three times per request: the idle deadline before it waits for the next
// request, the read deadline once the request has begun, the write
// deadline before the answer. Each move resets a timer of the Go runtime
// (a lock and a heap update); under load that was about 5% of the
// server's CPU time on a small read (perf, GET /countries/DE). Each also
// reads the clock and adds to the time first: 675 of 20,547 instructions
// a request (callgrind, a block by code), though the settling below had
// made the socket's deadline move only about once a second.
//
// So the server is given no timeouts (New), and the connection (Linger
// wraps every one the service accepts) keeps them by what it sees fasthttp
// do, which is a read, a write, a read...:
//   - the first Read after an answer was written waits for the next
//     request: idletimeout from then;
//   - once that Read has brought bytes, the request has begun: the Reads
//     that follow it (a request not read whole at once, its body) end at
//     readtimeout from the first of them, which comes at once after (the
//     clock is read then, not for every request: most are read whole by
//     their first Read). A connection's first request has readtimeout
//     from its first Read, as fasthttp gives it;
//   - the first Write of an answer: writetimeout from then, for all of
//     the answer's Writes.
//
// A deadline fasthttp sets itself (a stream route's own read timeout, see
// BodyLimits.Stream) holds until the answer. A request's body that waits
// for "100 Continue" is a Read after a Write: its first bytes have
// idletimeout, the rest readtimeout from then; bounded all the same.
//
// So a request costs two readings of the monotonic clock here instead of
// fasthttp's three of both clocks, and none of its deadline calls: 342
// instructions less a request (callgrind, same read; no timeouts at all
// would save 333 more).
//
// The socket's deadline is then settled lazily: just before the next Read
// or Write, and only when the socket's is earlier than wanted (it would
// cut the connection too soon) or later by more than a slack: 1/16 of the
// time left, at most one second. A deadline thus takes effect up to that
// much later than asked, never earlier: a slowloris client is cut at
// http.readtimeout plus at most a second. The slack also means the next
// requests' deadlines, a little later each, fall within what is set
// already: a busy connection moves its socket's deadline about once a
// second instead of three times a request.
//
// The connection is served by one goroutine, which both sets deadlines and
// reads and writes, so the fields need no lock. Setting a deadline to stop
// a Read under way in another goroutine (the drains' shutdown does) must go
// to the socket itself.

// connTimeouts are a connection's: http.readtimeout, writetimeout and
// idletimeout. Zero is none.
type connTimeouts struct{ Read, Write, Idle time.Duration }

// phase is what the connection is doing, as far as its deadlines go.
type phase uint8

const (
	// A new connection: its first request has readtimeout from the
	// first Read.
	phaseNew phase = iota
	// An answer was written; the next Read waits for a request.
	phaseAnswered
	// The Read waiting for a request brought bytes; readtimeout starts
	// with the next Read.
	phaseBegun
	// Reading a request; the read deadline is fixed until the answer.
	phaseReading
	// Writing an answer; the write deadline is fixed until the next Read.
	phaseWriting
)

// beforeRead sets the read deadline the next Read must keep.
func (c *lingerConn) beforeRead() {
	switch c.phase {
	case phaseWriting, phaseAnswered:
		c.phase = phaseAnswered
		c.rd.after(c.t.Idle)
	case phaseNew, phaseBegun:
		c.phase = phaseReading
		c.rd.after(c.t.Read)
	}
}

// afterRead notes that a Read waiting for a request brought bytes.
func (c *lingerConn) afterRead(n int) {
	if c.phase == phaseAnswered && n > 0 {
		c.phase = phaseBegun
	}
}

// beforeWrite sets the write deadline of an answer at its first Write.
func (c *lingerConn) beforeWrite() {
	if c.phase != phaseWriting {
		c.phase = phaseWriting
		if !c.wdFixed {
			c.wd.after(c.t.Write)
		}
		c.wdFixed = false
	}
}

const (
	deadlineSlackShare = 16
	maxDeadlineSlack   = time.Second
)

// clockBase is the origin of the deadlines' times. Kept as durations since
// it, they are read from the monotonic clock alone (time.Since: about half
// of time.Now, which reads the wall clock too) and need no time.Time
// arithmetic.
var clockBase = time.Now()

// deadline is one direction's deadline: what was asked for and what the
// socket has, as times since clockBase.
type deadline struct {
	want, set       time.Duration
	hasWant, hasSet bool
	// slack is how much later than asked set was when it was set.
	slack time.Duration
}

// after asks for the deadline d from now; none when d is not above 0.
func (d *deadline) after(timeout time.Duration) {
	if timeout <= 0 {
		d.hasWant = false
		return
	}
	d.want, d.hasWant = time.Since(clockBase)+timeout, true
}

// at asks for the deadline t; none when t is zero.
func (d *deadline) at(t time.Time) {
	d.want, d.hasWant = t.Sub(clockBase), !t.IsZero()
}

// settle returns the deadline the socket must be given before the next
// Read or Write, and whether it must be given one at all.
func (d *deadline) settle() (time.Time, bool) {
	if !d.hasWant {
		if !d.hasSet {
			return time.Time{}, false
		}
		d.hasSet, d.slack = false, 0
		return time.Time{}, true
	}
	if d.hasSet {
		if ahead := d.set - d.want; ahead >= 0 && ahead <= d.slack {
			return time.Time{}, false
		}
	}
	slack := min(max((d.want-time.Since(clockBase))/deadlineSlackShare, 0), maxDeadlineSlack)
	d.set, d.hasSet, d.slack = d.want+slack, true, slack
	return clockBase.Add(d.set), true
}
