package counters_test

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/propman/propman/modules/counters"
	"github.com/propman/propman/platform/money"
)

// bigBill is the reference: consumption (thousandths) x tariff (millionths)
// in cents, half away from zero, with math/big.
func bigBill(consumption, tariff int64) *big.Int {
	p := new(big.Int).Mul(big.NewInt(consumption), big.NewInt(tariff))
	q, r := new(big.Int).QuoRem(p, big.NewInt(10_000_000), new(big.Int))
	if r.Cmp(big.NewInt(5_000_000)) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func TestBillTable(t *testing.T) {
	cases := []struct {
		name        string
		consumption counters.Quantity // thousandths
		tariff      counters.Tariff   // millionths
		want        money.Amount      // cents
		tooLarge    bool
	}{
		{"zero consumption", 0, 301234, 0, false},
		{"one thousandth at the smallest tariff", 1, 1, 0, false},
		{"12.345 kWh x 0.301234", 12345, 301234, 372, false},
		{"exactly half a cent rounds up", 5000, 1, 0, false},                     // 5 x 0.000001 = 0.000005
		{"half a cent at tariff 0.000001", 5_000_000, 1, 1, false},               // 5000 x 0.000001 = 0.005 -> 0.01
		{"just below half a cent", 4_999_999, 1, 0, false},                       // 0.004999999 -> 0.00
		{"just above half a cent", 5_000_001, 1, 1, false},                       // 0.005000001 -> 0.01
		{"1.5 cents", 15, 1_000_000, 2, false},                                   // 0.015 x 1 = 0.015 -> 0.02
		{"2.5 cents", 25, 1_000_000, 3, false},                                   // half away from zero, not to even
		{"14999.999 x 0.001", 14_999_999, 1_000, 1500, false},                    // 14.999999 -> 15.00
		{"6-decimal tariff", 100_000, 123_456, 1235, false},                      // 100 x 0.123456 = 12.3456 -> 12.35
		{"6-decimal tariff, half", 1_000, 5_005_000, 501, false},                 // 1 x 5.005 = 5.005 -> 5.01
		{"largest value at tariff 0.000001", 999_999_999_999, 1, 100_000, false}, // 999999999.999 x 0.000001 = 999.999999999 -> 1000.00
		{"huge but fits", 999_999_999_999, 999_999, 99_999_900_000, false},       // 999999999.999 x 0.999999 = 999998999.999000001 -> 999999000.00
		{"1000 units x the largest tariff", 1_000_000, 999_999_999_999, 0, true}, // 999999999.999 -> 1000000000.00, too large
		{"largest value x largest tariff", 999_999_999_999, 999_999_999_999, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := counters.Bill(tc.consumption, tc.tariff)
			ref := bigBill(int64(tc.consumption), int64(tc.tariff))
			refTooLarge := ref.Cmp(big.NewInt(int64(money.Max))) > 0
			if tc.tooLarge != refTooLarge {
				t.Fatalf("table says tooLarge=%v, math/big says %v (%s)", tc.tooLarge, refTooLarge, ref)
			}
			if tc.tooLarge {
				if err == nil {
					t.Fatalf("Bill = %s, want an error", got)
				}
				return
			}
			if err != nil || int64(got) != ref.Int64() || got != tc.want {
				t.Fatalf("Bill = %s, %v; math/big %s, table %s", got, err, ref, tc.want)
			}
		})
	}
}

// Random values over the whole range agree with math/big.
func TestBillAgreesWithBigOverTheRange(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		c := r.Int64N(counters.MaxValue + 1)
		if r.IntN(2) == 0 {
			c = r.Int64N(100_000_000) // everyday values
		}
		tf := r.Int64N(counters.MaxTariff) + 1
		if r.IntN(2) == 0 {
			tf = r.Int64N(10_000_000) + 1
		}
		got, err := counters.Bill(counters.Quantity(c), counters.Tariff(tf))
		ref := bigBill(c, tf)
		if ref.Cmp(big.NewInt(int64(money.Max))) > 0 {
			if err == nil {
				t.Fatalf("%d x %d = %s: no error, want too large (%s)", c, tf, got, ref)
			}
			continue
		}
		if err != nil || int64(got) != ref.Int64() {
			t.Fatalf("%d x %d: Bill = %s, %v; math/big %s", c, tf, got, err, ref)
		}
	}
}
