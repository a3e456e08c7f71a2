package httpserver

import "time"

// Socket deadlines, set when they matter.
//
// With http.readtimeout, writetimeout and idletimeout set, fasthttp moves a
// keep-alive connection's deadlines three times per request: the idle
// deadline before it waits for the next request, the read deadline once the
// request has begun, the write deadline before the answer. Each move resets
// a timer of the Go runtime (a lock and a heap update); under load that was
// about 5% of the server's CPU time on a small read (perf, GET
// /countries/DE), more than the handler itself.
//
// A deadline only matters while a read or a write waits on the socket, so
// the connection keeps what fasthttp asked for and settles the socket's
// deadline just before its next Read or Write, and only when the socket's
// is earlier than asked (it would cut the connection too soon) or later by
// more than a slack: 1/16 of the time left, at most one second. A deadline
// thus takes effect up to that much later than asked, never earlier: a
// slowloris client is cut at http.readtimeout plus at most a second. The
// slack also means the next requests' deadlines, a little later each, fall
// within what is set already: a busy connection moves its socket's
// deadline about once a second instead of three times a request. A request
// read whole by one Read (most are) never sets the read deadline that
// fasthttp asks for once it has begun.
//
// The connection is served by one goroutine, which both sets deadlines and
// reads and writes, so the fields need no lock. Setting a deadline to stop
// a Read under way in another goroutine (the drains' shutdown does) must go
// to the socket itself.

const (
	deadlineSlackShare = 16
	maxDeadlineSlack   = time.Second
)

// deadline is one direction's deadline: what was asked for and what the
// socket has.
type deadline struct {
	want time.Time
	set  time.Time
	// slack is how much later than asked set was when it was set.
	slack time.Duration
}

// settle returns the deadline the socket must be given before the next
// Read or Write, and whether it must be given one at all.
func (d *deadline) settle() (time.Time, bool) {
	if d.want.IsZero() {
		if d.set.IsZero() {
			return time.Time{}, false
		}
		d.set, d.slack = time.Time{}, 0
		return time.Time{}, true
	}
	if !d.set.IsZero() {
		if ahead := d.set.Sub(d.want); ahead >= 0 && ahead <= d.slack {
			return time.Time{}, false
		}
	}
	slack := min(max(time.Until(d.want)/deadlineSlackShare, 0), maxDeadlineSlack)
	d.set, d.slack = d.want.Add(slack), slack
	return d.set, true
}
