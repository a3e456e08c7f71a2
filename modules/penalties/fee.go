package penalties

import (
	"errors"
	"math/big"
	"strings"

	"github.com/propman/propman/platform/money"
)

// maxPercentDigits bounds the digits of a percentage (the contracts module
// stores at most 1,000,000 with a float's few decimals).
const maxPercentDigits = 40

// Fee is outstanding x percent / 100, rounded half away from zero to the
// cent, computed exactly: percent is decimal text ("5", "2.5", "0.125")
// read as an integer and a power of ten, never as a float. An error for
// text that is not a non-negative decimal, or a fee above money.Max.
func Fee(outstanding money.Amount, percent string) (money.Amount, error) {
	digits, scale, err := decimal(percent)
	if err != nil {
		return 0, err
	}
	num := new(big.Int).Mul(big.NewInt(int64(outstanding)), digits)
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)+2), nil)
	return rounded(num, den, "late fee")
}

// DaysPerYear is the day count of statutory interest: the actual days
// overdue over a year of 365 days, as German courts and the common
// calculators count (leap years included).
const DaysPerYear = 365

// Interest is the default interest on outstanding for days days at percent
// a year: outstanding x percent / 100 x days / DaysPerYear, rounded half
// away from zero to the cent, computed exactly. 0 when percent or days is
// not positive; an error when it is above money.Max.
func Interest(outstanding money.Amount, percent *big.Rat, days int) (money.Amount, error) {
	if percent.Sign() <= 0 || days <= 0 {
		return 0, nil
	}
	num := new(big.Int).Mul(big.NewInt(int64(outstanding)), percent.Num())
	num.Mul(num, big.NewInt(int64(days)))
	den := new(big.Int).Mul(percent.Denom(), big.NewInt(100*DaysPerYear))
	return rounded(num, den, "default interest")
}

// rounded is num / den rounded half away from zero to a whole number of
// minor units, or an error naming what when it is beyond money.Max.
func rounded(num, den *big.Int, what string) (money.Amount, error) {
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	// Half away from zero: |r| >= den/2 moves q one step away from 0.
	if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(den) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	if !q.IsInt64() || q.Int64() > int64(money.Max) || q.Int64() < -int64(money.Max) {
		return 0, errors.New(what + " is more than the largest amount")
	}
	return money.Amount(q.Int64()), nil
}

// decimal reads "123.456" as 123456 and scale 3.
func decimal(s string) (*big.Int, int, error) {
	bad := errors.New("late-fee percentage " + quote(s) + " is not a decimal number")
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole)+len(frac) > maxPercentDigits || (strings.Contains(s, ".") && frac == "") {
		return nil, 0, bad
	}
	for _, r := range whole + frac {
		if r < '0' || r > '9' {
			return nil, 0, bad
		}
	}
	n, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok {
		return nil, 0, bad
	}
	return n, len(frac), nil
}

func quote(s string) string {
	if len(s) > 50 {
		s = s[:50] + "..."
	}
	return `"` + s + `"`
}
