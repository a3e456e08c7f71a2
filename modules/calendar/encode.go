package calendar

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// appendWindow writes a window's answer as encoding/json would write
// windowJSON, without its reflection: the window of a large portfolio
// holds some 12,000 entries, and reflection cost most of its time.
func appendWindow(b []byte, from, to, tz string, list []Occurrence) []byte {
	b = append(b, `{"from":`...)
	b = appendString(b, from)
	b = append(b, `,"to":`...)
	b = appendString(b, to)
	b = append(b, `,"time_zone":`...)
	b = appendString(b, tz)
	b = append(b, `,"occurrences":[`...)
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOccurrence(b, &list[i])
	}
	return append(b, "]}"...)
}

func appendOccurrence(b []byte, o *Occurrence) []byte {
	loc := o.Loc
	if loc == nil {
		loc = time.UTC
	}
	b = append(b, `{"id":`...)
	b = appendString(b, o.ID)
	b = append(b, `,"source":`...)
	b = appendString(b, o.Source)
	b = append(b, `,"event_id":`...)
	b = appendID(b, o.EventID)
	b = append(b, `,"kind":`...)
	b = appendString(b, o.Kind)
	b = append(b, `,"title":`...)
	b = appendString(b, o.Title)
	b = append(b, `,"description":`...)
	b = appendString(b, o.Description)
	b = append(b, `,"starts_at":`...)
	b = appendTime(b, o.Start, o.AllDay, loc)
	b = append(b, `,"ends_at":`...)
	b = appendTime(b, o.End, o.AllDay, loc)
	b = append(b, `,"all_day":`...)
	b = strconv.AppendBool(b, o.AllDay)
	b = append(b, `,"time_zone":`...)
	if o.Loc != nil {
		b = appendString(b, o.Loc.String())
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"recurrence_id":`...)
	if o.Recurrence != nil {
		b = appendTime(b, *o.Recurrence, o.AllDay, loc)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"property_id":`...)
	b = appendID(b, o.PropertyID)
	b = append(b, `,"contract_id":`...)
	b = appendID(b, o.ContractID)
	b = append(b, `,"sequence":`...)
	b = strconv.AppendInt(b, int64(o.Sequence), 10)
	return append(b, '}')
}

func appendID(b []byte, id *uuid.UUID) []byte {
	if id == nil {
		return append(b, "null"...)
	}
	b = append(b, '"')
	var buf [36]byte
	s := id.String()
	copy(buf[:], s)
	b = append(b, buf[:]...)
	return append(b, '"')
}

func appendTime(b []byte, t time.Time, allDay bool, loc *time.Location) []byte {
	b = append(b, '"')
	if allDay {
		b = t.UTC().AppendFormat(b, time.DateOnly)
	} else {
		b = t.In(loc).AppendFormat(b, time.RFC3339)
	}
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string. s is valid UTF-8 (the text rule
// holds for every stored string); control characters are escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, `\ufffd`...)
				i += size
				start = i
				continue
			}
			if r == '\u2028' || r == '\u2029' {
				b = append(b, s[start:i]...)
				b = append(b, `\u202`...)
				b = append(b, hexDigits[r&0xF])
				i += size
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
