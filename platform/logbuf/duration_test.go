package logbuf

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestAppendDuration: appendDuration writes what Duration.String does, for
// every duration up to 20 µs, the edges of each unit, a million random
// ones under a second and some beyond.
func TestAppendDuration(t *testing.T) {
	check := func(d time.Duration) {
		if got, want := string(appendDuration(nil, d)), d.String(); got != want {
			t.Fatalf("appendDuration(%d) = %q, want %q", int64(d), got, want)
		}
	}
	for d := time.Duration(-10); d <= 20*time.Microsecond; d++ {
		check(d)
	}
	for _, d := range []time.Duration{999, 1000, 1001, 999_999, 1_000_000, 1_000_001, 999_999_999, time.Second,
		time.Second + 1, 90 * time.Minute, -time.Millisecond, 1<<63 - 1, -1 << 63, 100_000, 120_000_000, 5_000_600} {
		check(d)
	}
	for range 1_000_000 {
		check(time.Duration(rand.Int64N(int64(time.Second))))
	}
}
