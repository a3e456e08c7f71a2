package counters

import (
	"testing"
)

// FuzzParseFixed: any input either is refused or gives a value within
// 0..max that formats back to text parsing to the same value.
func FuzzParseFixed(f *testing.F) {
	for _, s := range []string{"0", "12.345", "999999999.999", "1e3", "-1", "01", "1.", ".5", "1.2340", " 7 ", "1000000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tc := range []struct {
			decimals int
			max      int64
		}{{ValueDecimals, MaxValue}, {TariffDecimals, MaxTariff}} {
			v, err := parseFixed([]byte(s), tc.decimals, tc.max)
			if err != nil {
				continue
			}
			if v < 0 || v > tc.max {
				t.Fatalf("%q: %d out of range", s, v)
			}
			text := formatFixed(v, tc.decimals)
			back, err := parseFixed([]byte(text), tc.decimals, tc.max)
			if err != nil || back != v {
				t.Fatalf("%q -> %d -> %q -> %d, %v", s, v, text, back, err)
			}
		}
	})
}
