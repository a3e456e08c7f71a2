package penalties

import (
	"testing"

	"github.com/propman/propman/platform/money"
)

func TestFee(t *testing.T) {
	for _, tc := range []struct {
		outstanding money.Amount
		percent     string
		want        money.Amount
	}{
		{100000, "5", 5000},  // 1000.00 x 5% = 50.00
		{33333, "2.5", 833},  // 333.33 x 2.5% = 8.33325 -> 8.33
		{33340, "2.5", 834},  // 333.40 x 2.5% = 8.335 -> 8.34 (half away from zero)
		{33339, "2.5", 833},  // 8.33475 -> 8.33
		{10, "5", 1},         // 0.10 x 5% = 0.005 -> 0.01
		{9, "5", 0},          // 0.0045 -> 0.00
		{12345, "0", 0},      // no fee
		{100, "0.125", 0},    // 1.00 x 0.125% = 0.00125
		{40000, "0.125", 50}, // 400.00 x 0.125% = 0.50
		{100000, "100", 100000},
		{money.Max, "1", 1000000000}, // 999,999,999.99 x 1% = 9,999,999.9999 -> 10,000,000.00
		{-33340, "2.5", -834},        // away from zero on the negative side
		{1, "0.0000000000000000000000000000001", 0},
	} {
		got, err := Fee(tc.outstanding, tc.percent)
		if err != nil || got != tc.want {
			t.Errorf("Fee(%d, %q) = %d, %v; want %d", tc.outstanding, tc.percent, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "5.", ".5", "-5", "1e2", "5%", " 5", "NaN", "0x10", "1.2.3"} {
		if got, err := Fee(100, bad); err == nil {
			t.Errorf("Fee(100, %q) = %d, want an error", bad, got)
		}
	}
	if got, err := Fee(money.Max, "1000000"); err == nil {
		t.Errorf("a fee above money.Max: %d, want an error", got)
	}
}

func TestInterest(t *testing.T) {
	rate := func(base, points string) InterestRate { return InterestRate{Base: base, Points: points} }
	for _, tc := range []struct {
		outstanding money.Amount
		rate        InterestRate
		days        int
		want        money.Amount
	}{
		{60000, rate("1.27", "5"), 52, 536},     // 600.00 x 6.27% x 52/365 = 5.3595... -> 5.36
		{100000, rate("1.27", "5"), 21, 361},    // 1000.00 x 6.27% x 21/365 = 3.6073... -> 3.61
		{100000, rate("-0.88", "5"), 365, 4120}, // a negative base rate: 4.12% of 1000.00 for a year
		{73000, rate("0", "5"), 1, 10},          // 730.00 x 5% / 365 = 0.10 exactly
		{36500, rate("0", "5"), 1, 5},           // 365.00 x 5% / 365 = 0.05
		{100, rate("1.27", "5"), 1, 0},          // 1.00 for a day: 0.0001... -> 0.00
		{100000, rate("1.27", "5"), 0, 0},       // not overdue
		{100000, rate("-6", "5"), 30, 0},        // a rate at or below 0 charges nothing
	} {
		p, err := tc.rate.Percent()
		if err != nil {
			t.Fatal(err)
		}
		got, err := Interest(tc.outstanding, p, tc.days)
		if err != nil || got != tc.want {
			t.Errorf("Interest(%s, %+v, %d) = %s, %v; want %s", tc.outstanding, tc.rate, tc.days, got, err, tc.want)
		}
	}
	for _, bad := range []InterestRate{{Base: "", Points: "5"}, {Base: "1e2", Points: "5"}, {Base: "1/2", Points: "5"}, {Base: "1.27", Points: "five"}} {
		if _, err := bad.Percent(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
