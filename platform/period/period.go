// Package period holds calendar dates (no time of day, no zone) and the
// billing periods charges are generated for: a month ("2026-11"), a quarter
// ("2026-Q4") or a year ("2026"), all in UTC.
package period

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"
)

const layout = "2006-01-02"

// Date is a calendar day, kept as midnight UTC.
type Date struct {
	t time.Time
}

// ErrDate is the error of a malformed or impossible date, worded for a client.
var ErrDate = errors.New("must be a date in the form YYYY-MM-DD between 1900-01-01 and 2999-12-31")

// NewDate returns the date y-m-d; out-of-range values normalise as in time.Date.
func NewDate(y int, m time.Month, d int) Date {
	return Date{time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
}

// DateOf returns the UTC calendar day of t.
func DateOf(t time.Time) Date {
	y, m, d := t.UTC().Date()
	return NewDate(y, m, d)
}

// ParseDate reads YYYY-MM-DD; impossible days (2026-02-30) are errors.
func ParseDate(s string) (Date, error) {
	if len(s) != len(layout) {
		return Date{}, ErrDate
	}
	t, err := time.Parse(layout, s)
	if err != nil || t.Year() < 1900 || t.Year() > 2999 {
		return Date{}, ErrDate
	}
	return Date{t}, nil
}

// ParseJSON reads a JSON string holding YYYY-MM-DD.
func ParseJSON(raw []byte) (Date, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return Date{}, ErrDate
	}
	return ParseDate(s)
}

// String is YYYY-MM-DD.
func (d Date) String() string { return d.t.Format(layout) }

// IsZero reports whether d is unset.
func (d Date) IsZero() bool { return d.t.IsZero() }

// Before reports whether d is an earlier day than e.
func (d Date) Before(e Date) bool { return d.t.Before(e.t) }

// After reports whether d is a later day than e.
func (d Date) After(e Date) bool { return d.t.After(e.t) }

// MarshalJSON writes "YYYY-MM-DD".
func (d Date) MarshalJSON() ([]byte, error) { return []byte(`"` + d.String() + `"`), nil }

// UnmarshalJSON reads "YYYY-MM-DD".
func (d *Date) UnmarshalJSON(b []byte) error {
	v, err := ParseJSON(b)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Value stores the date as YYYY-MM-DD text, which a PostgreSQL DATE takes
// and which sorts correctly in SQLite.
func (d Date) Value() (driver.Value, error) { return d.String(), nil }

// Scan reads a date as the drivers return it: a time (PostgreSQL DATE, or
// modernc SQLite for a DATE column) or text; NULL is the zero date.
func (d *Date) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*d = Date{}
		return nil
	case time.Time:
		*d = DateOf(v)
		return nil
	case string:
		return d.scanText(v)
	case []byte:
		return d.scanText(string(v))
	}
	return fmt.Errorf("period: cannot scan %T into a date", src)
}

func (d *Date) scanText(s string) error {
	if len(s) > len(layout) {
		s = s[:len(layout)]
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return fmt.Errorf("period: %q is not a date: %w", s, err)
	}
	*d = Date{t}
	return nil
}

// Span is the length of a billing period.
type Span int

// The billing spans.
const (
	Month Span = iota + 1
	Quarter
	Year
)

// Period is one billing period: its label and its first and last day.
type Period struct {
	Label string
	First Date
	Last  Date
}

// PeriodOf returns the period of the span that contains t (in UTC).
func PeriodOf(span Span, t time.Time) (Period, error) { //nolint:revive // "period.PeriodOf(span, t)" reads as what it returns; "Of" alone would not
	y, m, _ := t.UTC().Date()
	var first Date
	var months int
	var label string
	switch span {
	case Month:
		first, months, label = NewDate(y, m, 1), 1, fmt.Sprintf("%04d-%02d", y, int(m))
	case Quarter:
		q := (int(m)-1)/3 + 1
		first, months, label = NewDate(y, time.Month(3*q-2), 1), 3, fmt.Sprintf("%04d-Q%d", y, q)
	case Year:
		first, months, label = NewDate(y, time.January, 1), 12, fmt.Sprintf("%04d", y)
	default:
		return Period{}, fmt.Errorf("period: unknown span %d", span)
	}
	last := Date{first.t.AddDate(0, months, -1)}
	return Period{Label: label, First: first, Last: last}, nil
}

// Overlaps reports whether the period shares a day with from..to; a zero to
// means open-ended.
func (p Period) Overlaps(from, to Date) bool {
	if from.After(p.Last) {
		return false
	}
	return to.IsZero() || !to.Before(p.First)
}

// DueDate is day (1 to 28) of the period's first month.
func (p Period) DueDate(day int) Date {
	return NewDate(p.First.t.Year(), p.First.t.Month(), day)
}

var periodLabel = regexp.MustCompile(`^(\d{4})(?:-(0[1-9]|1[0-2])|-Q([1-4]))?$`)

// ValidLabel reports whether s is a period label: YYYY-MM, YYYY-Qn or YYYY.
func ValidLabel(s string) bool {
	m := periodLabel.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	y, _ := strconv.Atoi(m[1])
	return y >= 1900 && y <= 2999
}

// MonthLabel is the label of the month d falls in.
func MonthLabel(d Date) string { return d.t.Format("2006-01") }

// Year is d's year.
func (d Date) Year() int { return d.t.Year() }

// Month is d's month.
func (d Date) Month() time.Month { return d.t.Month() }

// Day is d's day of the month.
func (d Date) Day() int { return d.t.Day() }

// AddDays returns the day n days after d (before it when n is negative).
func (d Date) AddDays(n int) Date { return Date{d.t.AddDate(0, 0, n)} }

// Time is the date's midnight UTC.
func (d Date) Time() time.Time { return d.t }
