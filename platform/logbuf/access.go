package logbuf

import (
	"io"
	"log/slog"
	"net/netip"
	"strconv"
	"time"
)

// Access is one access-log record, the line the service writes for every
// request: msg "request" and these attributes, in this order.
type Access struct {
	Time  time.Time
	Level slog.Level
	// The request id: OurID when Own (the service made it: a UUID's text,
	// written unchecked), else ClientID, checked and quoted as any
	// string. An array, not a slice of the caller's: Access is passed by
	// value through the Direct interface, and a slice of a stack array
	// would move the array to the heap on every request.
	OurID    [36]byte
	Own      bool
	ClientID string
	Method   string
	Path     string
	Status   int
	Duration time.Duration
	// The client's address: IP when the caller has its text, else Addr,
	// written without making a string.
	IP    string
	Addr  netip.Addr
	Bytes int
}

// writeAccess is WriteAccess of this package's Direct handlers.
//
// One function writes the whole line with its keys as constants: built
// field by field (a call each, checking the format and appending its key
// in three steps), the line cost 2,582 instructions a request (callgrind),
// about half of what propman spent beyond bare Fiber on a small read.
func writeAccess(w io.Writer, json bool, a *Access) error {
	l := linePool.Get().(*line)
	if json {
		l.buf = appendAccessJSON(l.buf, a)
	} else {
		l.buf = appendAccessText(l.buf, a)
	}
	var err error
	if bw, ok := w.(*Writer); ok {
		_, err = bw.writeShardAt(l.shard, l.buf, a.Time)
	} else {
		_, err = w.Write(l.buf)
	}
	l.free()
	return err
}

func appendAccessText(b []byte, a *Access) []byte {
	b = append(b, "time="...)
	b = appendStamp(b, a.Time)
	b = append(b, " level="...)
	b = appendTextLevel(b, a.Level)
	b = append(b, " msg=request request_id="...)
	if a.Own {
		b = append(b, a.OurID[:]...)
	} else {
		b = appendTextString(b, a.ClientID)
	}
	b = append(b, " method="...)
	b = appendTextString(b, a.Method)
	b = append(b, " path="...)
	b = appendTextString(b, a.Path)
	b = append(b, " status="...)
	b = appendInt(b, a.Status)
	b = append(b, " duration="...)
	b = appendDuration(b, a.Duration)
	b = append(b, " ip="...)
	if a.IP != "" || !plainAddr(a.Addr) {
		b = appendTextString(b, a.ipText())
	} else {
		b = a.Addr.AppendTo(b)
	}
	b = append(b, " bytes="...)
	b = appendInt(b, a.Bytes)
	return append(b, '\n')
}

func appendAccessJSON(b []byte, a *Access) []byte {
	b = append(b, `{"time":"`...)
	b = a.Time.Round(0).AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":`...)
	b = appendJSONString(b, a.Level.String())
	b = append(b, `,"msg":"request","request_id":`...)
	if a.Own {
		b = append(b, '"')
		b = append(b, a.OurID[:]...)
		b = append(b, '"')
	} else {
		b = appendJSONString(b, a.ClientID)
	}
	b = append(b, `,"method":`...)
	b = appendJSONString(b, a.Method)
	b = append(b, `,"path":`...)
	b = appendJSONString(b, a.Path)
	b = append(b, `,"status":`...)
	b = appendInt(b, a.Status)
	b = append(b, `,"duration":`...)
	b = strconv.AppendInt(b, int64(a.Duration), 10)
	b = append(b, `,"ip":`...)
	if a.IP != "" || !plainAddr(a.Addr) {
		b = appendJSONString(b, a.ipText())
	} else {
		b = append(b, '"')
		b = a.Addr.AppendTo(b)
		b = append(b, '"')
	}
	b = append(b, `,"bytes":`...)
	b = appendInt(b, a.Bytes)
	return append(b, "}\n"...)
}

func appendTextLevel(b []byte, level slog.Level) []byte {
	switch level {
	case slog.LevelDebug:
		return append(b, "DEBUG"...)
	case slog.LevelInfo:
		return append(b, "INFO"...)
	case slog.LevelWarn:
		return append(b, "WARN"...)
	case slog.LevelError:
		return append(b, "ERROR"...)
	}
	return appendTextString(b, level.String())
}

// appendTextString writes s as slog's text handler does.
func appendTextString(b []byte, s string) []byte {
	if needsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

// appendJSONString writes s as slog's JSON handler does.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscapedJSONString(b, s)
	return append(b, '"')
}

// appendInt writes v as strconv does; a status, and the size of a small
// answer, digit by digit, which costs a tenth of strconv's general path.
func appendInt(b []byte, v int) []byte {
	switch {
	case uint(v) < 10:
		return append(b, byte('0'+v))
	case uint(v) < 100:
		return append(b, byte('0'+v/10), byte('0'+v%10))
	case uint(v) < 1000:
		return append(b, byte('0'+v/100), byte('0'+v/10%10), byte('0'+v%10))
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// appendDuration writes d as d.String() does: a request's duration (under
// a second) digit by digit, without making the string; others as String.
func appendDuration(b []byte, d time.Duration) []byte {
	if d <= 0 || d >= time.Second {
		return append(b, d.String()...)
	}
	u := int(d)
	if u < 1000 {
		return append(appendInt(b, u), 'n', 's')
	}
	unit, digits, scale := "µs", 3, 1000
	if u >= 1_000_000 {
		unit, digits, scale = "ms", 6, 1_000_000
	}
	whole, frac := u/scale, u%scale
	b = appendInt(b, whole) // below 1000
	if frac != 0 {
		for frac%10 == 0 {
			frac /= 10
			digits--
		}
		b = append(b, '.')
		n := len(b)
		b = append(b, "000000"[:digits]...)
		for i := len(b) - 1; i >= n; i-- {
			b[i] = byte('0' + frac%10)
			frac /= 10
		}
	}
	return append(b, unit...)
}

// ipText is the address as a string: IP, or Addr's text when IP is empty.
func (a *Access) ipText() string {
	if a.IP != "" {
		return a.IP
	}
	return a.Addr.String()
}

// plainAddr reports whether a's text needs no quoting or escaping: a valid
// address without a zone is digits, hex letters, '.' and ':'.
func plainAddr(a netip.Addr) bool { return a.IsValid() && a.Zone() == "" }
