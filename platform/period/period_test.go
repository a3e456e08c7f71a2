package period

import (
	"testing"
	"time"
)

func TestPeriodOf(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		name        string
		span        Span
		now         string
		label       string
		first, last string
	}{
		{"month", Month, "2026-11-22T10:00:00Z", "2026-11", "2026-11-01", "2026-11-30"},
		{"month end, last instant", Month, "2026-11-30T23:59:59Z", "2026-11", "2026-11-01", "2026-11-30"},
		{"next month", Month, "2026-12-01T00:00:00Z", "2026-12", "2026-12-01", "2026-12-31"},
		{"February of a leap year", Month, "2028-02-10T00:00:00Z", "2028-02", "2028-02-01", "2028-02-29"},
		{"zone is ignored: UTC counts", Month, "2026-12-01T00:30:00+01:00", "2026-11", "2026-11-01", "2026-11-30"},
		{"Q4", Quarter, "2026-11-22T10:00:00Z", "2026-Q4", "2026-10-01", "2026-12-31"},
		{"Q1", Quarter, "2027-01-01T00:00:00Z", "2027-Q1", "2027-01-01", "2027-03-31"},
		{"Q2 starts", Quarter, "2026-04-01T00:00:00Z", "2026-Q2", "2026-04-01", "2026-06-30"},
		{"Q1 ends", Quarter, "2026-03-31T23:59:59Z", "2026-Q1", "2026-01-01", "2026-03-31"},
		{"year", Year, "2026-11-22T10:00:00Z", "2026", "2026-01-01", "2026-12-31"},
		{"new year", Year, "2027-01-01T00:00:00Z", "2027", "2027-01-01", "2027-12-31"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := PeriodOf(tc.span, at(tc.now))
			if err != nil {
				t.Fatal(err)
			}
			if p.Label != tc.label || p.First.String() != tc.first || p.Last.String() != tc.last {
				t.Fatalf("got %s %s..%s, want %s %s..%s", p.Label, p.First, p.Last, tc.label, tc.first, tc.last)
			}
		})
	}
}

func TestOverlapsAndDueDate(t *testing.T) {
	p, _ := PeriodOf(Quarter, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC))
	d := func(s string) Date {
		v, err := ParseDate(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		from, to string
		want     bool
	}{
		{"2026-01-01", "", true},
		{"2026-12-31", "", true},
		{"2027-01-01", "", false},
		{"2026-01-01", "2026-09-30", false},
		{"2026-01-01", "2026-10-01", true},
		{"2026-11-01", "2026-11-15", true},
	}
	for _, tc := range cases {
		var to Date
		if tc.to != "" {
			to = d(tc.to)
		}
		if got := p.Overlaps(d(tc.from), to); got != tc.want {
			t.Errorf("%s..%s overlaps %s: %v, want %v", tc.from, tc.to, p.Label, got, tc.want)
		}
	}
	if got := p.DueDate(28).String(); got != "2026-10-28" {
		t.Errorf("due date %s, want 2026-10-28", got)
	}
}

func TestParseDate(t *testing.T) {
	for _, s := range []string{"2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "2026-01-01T00:00:00Z", "1899-12-31", "3000-01-01", ""} {
		if _, err := ParseDate(s); err == nil {
			t.Errorf("ParseDate(%q) accepted", s)
		}
	}
	for _, s := range []string{"2028-02-29", "1900-01-01", "2999-12-31"} {
		if d, err := ParseDate(s); err != nil || d.String() != s {
			t.Errorf("ParseDate(%q) = %s, %v", s, d, err)
		}
	}
}

func TestValidLabel(t *testing.T) {
	for s, want := range map[string]bool{"2026": true, "2026-11": true, "2026-Q4": true, "2026-13": false, "2026-Q5": false, "2026-1": false, "x": false, "": false, "0026": false} {
		if got := ValidLabel(s); got != want {
			t.Errorf("ValidLabel(%q) = %v, want %v", s, got, want)
		}
	}
}
