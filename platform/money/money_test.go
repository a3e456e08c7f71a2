package money

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		want Amount
		err  error
	}{
		{"0", 0, nil},
		{"1", 100, nil},
		{"1200.5", 120050, nil},
		{"1200.50", 120050, nil},
		{"1200.500", 120050, nil},
		{"0.07", 7, nil},
		{"0.1", 10, nil},
		{"-12.34", -1234, nil},
		{"999999999.99", Max, nil},
		{"-999999999.99", -Max, nil},
		{"1000000000", 0, ErrTooLarge},
		{"1.005", 0, ErrDecimals},
		{"0.001", 0, ErrDecimals},
		{"1e3", 0, ErrExponent},
		{"1.5E+2", 0, ErrExponent},
		{`"12.50"`, 0, ErrNotNumber},
		{"null", 0, ErrNotNumber},
		{"true", 0, ErrNotNumber},
		{"{}", 0, ErrNotNumber},
		{"", 0, ErrNotNumber},
		{"01", 0, ErrNotNumber},
		{"1.", 0, ErrNotNumber},
		{".5", 0, ErrNotNumber},
		{"--1", 0, ErrNotNumber},
		{"1e", 0, ErrNotNumber},
		{"1.2.3", 0, ErrNotNumber},
		{"123456789012345678901234567890123456789012345678901234567890123456789", 0, ErrTooLarge},
	}
	for _, tc := range cases {
		got, err := Parse([]byte(tc.in))
		if !errors.Is(err, tc.err) || got != tc.want {
			t.Errorf("Parse(%q) = %d, %v; want %d, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestString(t *testing.T) {
	for a, want := range map[Amount]string{0: "0.00", 5: "0.05", 120050: "1200.50", -7: "-0.07", -1234: "-12.34", Max: "999999999.99"} {
		if got := a.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int64(a), got, want)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	var v struct {
		A Amount `json:"a"`
	}
	if err := json.Unmarshal([]byte(`{"a": 19.99}`), &v); err != nil || v.A != 1999 {
		t.Fatalf("unmarshal: %d, %v", v.A, err)
	}
	b, err := json.Marshal(v)
	if err != nil || string(b) != `{"a":19.99}` {
		t.Fatalf("marshal: %s, %v", b, err)
	}
}

// Whatever the input, Parse either fails or returns an amount within the
// bounds whose text reads back as the same amount.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0", "1200.50", "-0.07", "1e3", "999999999.99", `"1"`, "1.005"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := Parse([]byte(s))
		if err != nil {
			return
		}
		if a > Max || a < -Max {
			t.Fatalf("Parse(%q) = %d, out of bounds", s, a)
		}
		back, err := Parse([]byte(a.String()))
		if err != nil || back != a {
			t.Fatalf("Parse(%q) = %d, but its text %q reads as %d, %v", s, a, a.String(), back, err)
		}
	})
}
