package counters

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/bits"
	"strconv"

	"github.com/propman/propman/platform/money"
)

// Fixed-point quantities: meter readings are kept as whole thousandths of a
// unit, tariffs as whole millionths of the currency per unit. Both are read
// from JSON number text and written back as text, never through a float.
const (
	ValueDecimals  = 3
	TariffDecimals = 6
	// MaxValue is the largest reading, 999,999,999.999 units.
	MaxValue int64 = 999_999_999_999
	// MaxTariff is the largest tariff, 999,999.999999 per unit.
	MaxTariff int64 = 999_999_999_999
)

// errNotNumber and friends are worded for a client; the caller adds the
// field name.
var (
	errNotNumber = errors.New("must be a JSON number such as 12.345")
	errExponent  = errors.New("must be written without an exponent")
	errNegative  = errors.New("must not be negative")
)

// parseFixed reads a decimal number literal exactly as an integer count of
// 10^-decimals, refusing more decimals (trailing zeros beyond them are
// harmless), a sign, an exponent and values above limit.
func parseFixed(raw []byte, decimals int, limit int64) (int64, error) {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return 0, errNotNumber
	}
	if s[0] == '-' {
		if len(s) > 1 && s[1] >= '0' && s[1] <= '9' {
			return 0, errNegative
		}
		return 0, errNotNumber
	}
	if bytes.ContainsAny(s, "eE") {
		if bytes.IndexFunc(s, func(r rune) bool {
			return (r < '0' || r > '9') && r != '.' && r != 'e' && r != 'E' && r != '+' && r != '-'
		}) < 0 {
			return 0, errExponent
		}
		return 0, errNotNumber
	}
	intPart, frac := s, []byte(nil)
	if i := bytes.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i+1:]
		if len(frac) == 0 {
			return 0, errNotNumber
		}
	}
	if !allDigits(intPart) || (len(intPart) > 1 && intPart[0] == '0') || (frac != nil && !allDigits(frac)) {
		return 0, errNotNumber
	}
	frac = bytes.TrimRight(frac, "0")
	tooLarge := fmt.Errorf("must be at most %s", formatFixed(limit, decimals))
	if len(frac) > decimals {
		return 0, fmt.Errorf("must have at most %d decimals", decimals)
	}
	intPart = bytes.TrimLeft(intPart, "0")
	if len(intPart) > 18-decimals {
		return 0, tooLarge
	}
	var v int64
	if len(intPart) > 0 {
		v, _ = strconv.ParseInt(string(intPart), 10, 64)
	}
	for range decimals {
		v *= 10
	}
	if len(frac) > 0 {
		f, _ := strconv.ParseInt(string(frac), 10, 64)
		for range decimals - len(frac) {
			f *= 10
		}
		v += f
	}
	if v > limit {
		return 0, tooLarge
	}
	return v, nil
}

func allDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// formatFixed writes v (>= 0) with exactly decimals digits after the point.
func formatFixed(v int64, decimals int) string {
	s := strconv.FormatInt(v, 10)
	for len(s) <= decimals {
		s = "0" + s
	}
	return s[:len(s)-decimals] + "." + s[len(s)-decimals:]
}

// Quantity is a reading or a consumption in thousandths of a unit, written
// to JSON with exactly 3 decimals.
type Quantity int64

// MarshalJSON writes the quantity as a JSON number with 3 decimals.
func (q Quantity) MarshalJSON() ([]byte, error) {
	return []byte(formatFixed(int64(q), ValueDecimals)), nil
}

func (q Quantity) String() string { return formatFixed(int64(q), ValueDecimals) }

// Tariff is a price per unit in millionths of the currency, written to
// JSON with exactly 6 decimals.
type Tariff int64

// MarshalJSON writes the tariff as a JSON number with 6 decimals.
func (t Tariff) MarshalJSON() ([]byte, error) {
	return []byte(formatFixed(int64(t), TariffDecimals)), nil
}

func (t Tariff) String() string { return formatFixed(int64(t), TariffDecimals) }

// billScale turns thousandths x millionths (10^-9) into cents (10^-2).
const billScale = 10_000_000

// errAmountTooLarge is the refusal of a consumption whose charge would not
// fit the largest amount of money.
var errAmountTooLarge = fmt.Errorf("the charge for this consumption would exceed %s", money.Max)

// Bill is consumption x tariff in cents, rounded half away from zero (both
// are >= 0, so half up), computed exactly in 128 bits: the product of the
// largest consumption and the largest tariff (about 10^24) does not fit 64.
// It refuses an amount above money.Max rather than overflowing.
func Bill(consumption Quantity, tariff Tariff) (money.Amount, error) {
	if consumption < 0 || tariff < 0 {
		return 0, errors.New("negative consumption or tariff")
	}
	hi, lo := bits.Mul64(uint64(consumption), uint64(tariff))
	if hi >= billScale {
		// The quotient would not fit 64 bits; it is far above money.Max.
		return 0, errAmountTooLarge
	}
	q, r := bits.Div64(hi, lo, billScale)
	if r >= billScale/2 {
		q++
	}
	if q > uint64(money.Max) {
		return 0, errAmountTooLarge
	}
	return money.Amount(q), nil
}

// Value stores the quantity as its integer count of thousandths.
func (q Quantity) Value() (driver.Value, error) { return int64(q), nil }

// Scan reads an integer count of thousandths.
func (q *Quantity) Scan(src any) error {
	v, err := scanInt(src)
	*q = Quantity(v)
	return err
}

// Value stores the tariff as its integer count of millionths.
func (t Tariff) Value() (driver.Value, error) { return int64(t), nil }

// Scan reads an integer count of millionths.
func (t *Tariff) Scan(src any) error {
	v, err := scanInt(src)
	*t = Tariff(v)
	return err
}

func scanInt(src any) (int64, error) {
	switch v := src.(type) {
	case int64:
		return v, nil
	case []byte:
		return strconv.ParseInt(string(v), 10, 64)
	case string:
		return strconv.ParseInt(v, 10, 64)
	}
	return 0, fmt.Errorf("counters: cannot scan %T into a fixed-point number", src)
}
