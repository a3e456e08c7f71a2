package analytics

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/propman/propman/platform/fault"
)

// The bounds of one request. A full request of maximal events is about
// 700 KB, under the 1 MiB body limit.
const (
	MaxEvents      = 100
	MaxProperties  = 20
	MaxNameLen     = 100
	MaxAnonIDLen   = 100
	MaxKeyLen      = 64
	MaxValueLen    = 256
	maxNumberLen   = 32
	maxDetails     = 50
	maxPast        = 30 * 24 * time.Hour
	maxFuture      = 10 * time.Minute
	eventOverhead  = 96 // bytes an Event holds besides its strings
	timestampField = "timestamp"
)

// trackRequest is the body of POST /analytics/track. Every string is a
// fresh copy made by encoding/json (json.RawMessage values are copied
// too), never a view of Fiber's request buffer, so the events may outlive
// the request in the buffer.
type trackRequest struct {
	Events []eventInput `json:"events"`
}

type eventInput struct {
	Name        string          `json:"name"`
	Properties  json.RawMessage `json:"properties"`
	Timestamp   *string         `json:"timestamp"`
	AnonymousID *string         `json:"anonymous_id"`
}

// Event is one accepted event on its way to the database.
type Event struct {
	Name        string
	OccurredAt  time.Time
	ReceivedAt  time.Time
	UserID      int64 // 0: anonymous
	WorkspaceID int64 // 0: none
	AnonymousID string
	Properties  []byte // a flat JSON object, keys sorted
}

// size is what e holds in memory, for the buffer's byte bound.
func (e *Event) size() int {
	return eventOverhead + len(e.Name) + len(e.AnonymousID) + len(e.Properties)
}

// Day is the UTC date the summary counts e on.
func (e *Event) Day() string { return e.OccurredAt.Format(time.DateOnly) }

// unprocessable is the 422 of a well-formed body that breaks the rules of
// events: nothing of the request is kept.
func unprocessable(details []string) *fault.Error {
	if len(details) > maxDetails {
		more := len(details) - maxDetails
		details = append(details[:maxDetails:maxDetails], fmt.Sprintf("... and %d more", more))
	}
	return &fault.Error{Kind: fault.KindUnprocessable, Code: "validation_failed",
		Message: "The events are not valid; none of them was recorded.", Details: details}
}

// toEvents checks every event of req and returns them ready to buffer, or
// the 422 listing every broken rule. now is the time of receipt.
func toEvents(req *trackRequest, now time.Time, userID, workspaceID int64) ([]Event, int, error) {
	switch n := len(req.Events); {
	case req.Events == nil:
		return nil, 0, unprocessable([]string{"events: required, a list of 1 to 100 events"})
	case n == 0:
		return nil, 0, unprocessable([]string{"events: at least one event is required"})
	case n > MaxEvents:
		return nil, 0, unprocessable([]string{fmt.Sprintf("events: at most %d events a request, got %d", MaxEvents, n)})
	}
	now = now.UTC().Truncate(time.Microsecond)
	var details []string
	out := make([]Event, len(req.Events))
	// One buffer holds every event's properties: one allocation per
	// request instead of one per event.
	room := 0
	for i := range req.Events {
		room += len(req.Events[i].Properties) + 2
	}
	props := make([]byte, 0, room)
	size := 0
	for i := range req.Events {
		in := &req.Events[i]
		// The path of a detail is made only when there is one.
		at := func() string { return "events[" + strconv.Itoa(i) + "]." }
		e := Event{ReceivedAt: now, OccurredAt: now, UserID: userID, WorkspaceID: workspaceID}

		e.Name = strings.TrimSpace(in.Name)
		switch n := utf8.RuneCountInString(e.Name); {
		case n == 0:
			details = append(details, at()+"name: required")
		case n > MaxNameLen:
			details = append(details, fmt.Sprintf("%sname: at most %d characters", at(), MaxNameLen))
		}

		if in.AnonymousID != nil {
			e.AnonymousID = strings.TrimSpace(*in.AnonymousID)
			if utf8.RuneCountInString(e.AnonymousID) > MaxAnonIDLen {
				details = append(details, fmt.Sprintf("%sanonymous_id: at most %d characters", at(), MaxAnonIDLen))
			}
		}
		if userID == 0 && e.AnonymousID == "" {
			details = append(details, at()+"anonymous_id: required without a bearer token")
		}

		if in.Timestamp != nil {
			t, err := time.Parse(time.RFC3339Nano, *in.Timestamp)
			switch {
			case err != nil:
				details = append(details, at()+timestampField+": must be an RFC 3339 time such as 2026-11-22T10:00:00Z")
			case t.Before(now.Add(-maxPast)):
				details = append(details, at()+timestampField+": must not be more than 30 days in the past")
			case t.After(now.Add(maxFuture)):
				details = append(details, at()+timestampField+": must not be more than 10 minutes in the future")
			default:
				e.OccurredAt = t.UTC().Truncate(time.Microsecond)
			}
		}

		start := len(props)
		var broken string
		props, broken = properties(props, in.Properties)
		if broken != "" {
			details = append(details, at()+"properties"+broken)
		}
		e.Properties = props[start:len(props):len(props)]
		out[i] = e
		size += e.size()
	}
	if len(details) > 0 {
		return nil, 0, unprocessable(details)
	}
	return out, size, nil
}

// properties checks a flat object (string, number, boolean or null
// values) and returns it as compact JSON, keys in the order sent. raw is
// valid JSON whose strings passed the text rule (DecodeJSON checked both),
// so a scan of its bytes suffices; decoding it into a map cost a third of
// the request's time. A broken object gets its first problem named.
func properties(out []byte, raw json.RawMessage) ([]byte, string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return append(out, "{}"...), ""
	}
	if raw[0] != '{' {
		return out, ": must be an object of flat values"
	}
	out = append(out, '{')
	var keys [MaxProperties][]byte
	n := 0
	i := skipSpace(raw, 1)
	for raw[i] != '}' {
		end, escaped := scanString(raw, i)
		key := raw[i+1 : end-1]
		if escaped {
			var k string
			_ = json.Unmarshal(raw[i:end], &k)
			key = []byte(k)
		}
		if c := utf8.RuneCount(key); c == 0 || c > MaxKeyLen {
			return out, fmt.Sprintf(": keys must be 1 to %d characters", MaxKeyLen)
		}
		where := func() string { return "." + string(key) }
		if n == MaxProperties {
			return out, fmt.Sprintf(": at most %d keys", MaxProperties)
		}
		for _, k := range keys[:n] {
			if bytes.Equal(k, key) {
				return out, where() + ": the key is given twice"
			}
		}
		keys[n] = key
		n++
		if n > 1 {
			out = append(out, ',')
		}
		out = append(out, raw[i:end]...)
		out = append(out, ':')
		i = skipSpace(raw, skipSpace(raw, end)+1) // past the colon
		var vend int
		switch raw[i] {
		case '{', '[':
			return out, where() + ": must be a string, number, boolean or null (properties are flat: no objects or lists)"
		case '"':
			var esc bool
			vend, esc = scanString(raw, i)
			length := utf8.RuneCount(raw[i+1 : vend-1])
			if esc {
				var v string
				_ = json.Unmarshal(raw[i:vend], &v)
				length = utf8.RuneCountInString(v)
			}
			if length > MaxValueLen {
				return out, fmt.Sprintf("%s: at most %d characters", where(), MaxValueLen)
			}
		default:
			vend = i
			for vend < len(raw) && !bytes.ContainsRune([]byte(",} \t\r\n"), rune(raw[vend])) {
				vend++
			}
			if msg := literal(raw[i:vend]); msg != "" {
				return out, where() + ": " + msg
			}
		}
		out = append(out, raw[i:vend]...)
		i = skipSpace(raw, vend)
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return append(out, '}'), ""
}

// literal returns why a JSON literal (true, false, null or a number)
// cannot be a property value, or "".
func literal(v []byte) string {
	switch v[0] {
	case 't', 'f', 'n':
		return ""
	}
	// Bounded so that no number reaches the database it cannot hold
	// (PostgreSQL's jsonb refuses 1e1000000 and would fail a batch).
	f, err := strconv.ParseFloat(string(v), 64)
	if len(v) > maxNumberLen || err != nil || math.IsInf(f, 0) {
		return fmt.Sprintf("numbers must be finite and at most %d characters", maxNumberLen)
	}
	return ""
}

// scanString returns the index past the JSON string starting at raw[i]
// (a quote), and whether it holds escapes.
func scanString(raw []byte, i int) (int, bool) {
	escaped := false
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return len(raw), escaped
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}
