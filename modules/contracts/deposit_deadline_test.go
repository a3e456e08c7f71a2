package contracts

import (
	"testing"

	"github.com/propman/propman/platform/period"
)

func TestDepositDeadline(t *testing.T) {
	end := period.NewDate(2026, 8, 31)
	cases := []struct {
		country   string
		matching  bool
		want      string
		statutory bool
	}{
		{"DE", false, "2027-02-28", false},
		{"fr", false, "2026-10-31", true},
		{"FR", true, "2026-09-30", true},
		{"ES", false, "2026-09-30", true},
		{"GB", false, "2026-09-10", true},
		{"UA", false, "2026-09-30", false},
	}
	for _, c := range cases {
		got, statutory := DepositDeadline(c.country, end, c.matching)
		if got.String() != c.want || statutory != c.statutory {
			t.Errorf("%s matching=%v: %s statutory=%v, want %s %v", c.country, c.matching, got, statutory, c.want, c.statutory)
		}
	}
}
