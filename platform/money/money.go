// Package money holds amounts of money exactly: as whole hundredths of a
// currency unit, read from and written to JSON as decimal text, never as a
// floating-point number.
package money

import (
	"bytes"
	"errors"
	"strconv"
)

// Amount is a sum of money in hundredths of a currency unit (cents), for
// every currency alike: the API allows at most 2 decimals everywhere.
type Amount int64

// Max is the largest amount accepted from a client: 999,999,999.99.
const Max Amount = 99_999_999_999

// Errors of Parse, worded for a client (the caller adds the field name).
var (
	ErrNotNumber = errors.New("must be a JSON number such as 1200.50")
	ErrExponent  = errors.New("must be written without an exponent, such as 1200.50")
	ErrDecimals  = errors.New("must have at most 2 decimals")
	ErrTooLarge  = errors.New("must be at most 999999999.99 in size")
)

// Parse reads a JSON number literal exactly. It accepts at most 2 decimals
// (trailing zeros beyond them are harmless: 1.500 is 1.50) and sizes up to
// Max either side of zero. A string, null or any other JSON value is an
// error.
func Parse(raw []byte) (Amount, error) {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 || len(s) > 64 {
		if len(s) > 64 {
			return 0, ErrTooLarge
		}
		return 0, ErrNotNumber
	}
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	intPart, frac := s, []byte(nil)
	if i := bytes.IndexAny(s, ".eE"); i >= 0 {
		intPart = s[:i]
		rest := s[i:]
		if rest[0] == '.' {
			frac = rest[1:]
			if j := bytes.IndexAny(frac, "eE"); j >= 0 {
				return 0, exponentOrNot(frac[:j], frac[j+1:])
			}
		} else {
			return 0, exponentOrNot(intPart, rest[1:])
		}
		if len(frac) == 0 {
			return 0, ErrNotNumber
		}
	}
	if !digits(intPart) || (len(intPart) > 1 && intPart[0] == '0') || (frac != nil && !digits(frac)) {
		return 0, ErrNotNumber
	}
	frac = bytes.TrimRight(frac, "0")
	if len(frac) > 2 {
		return 0, ErrDecimals
	}
	intPart = bytes.TrimLeft(intPart, "0")
	if len(intPart) > 9 {
		return 0, ErrTooLarge
	}
	var units, cents int64
	if len(intPart) > 0 {
		units, _ = strconv.ParseInt(string(intPart), 10, 64)
	}
	if len(frac) > 0 {
		cents, _ = strconv.ParseInt(string(frac), 10, 64)
		if len(frac) == 1 {
			cents *= 10
		}
	}
	a := Amount(units*100 + cents)
	if neg {
		a = -a
	}
	return a, nil
}

// exponentOrNot tells a well-formed number with an exponent from garbage.
func exponentOrNot(mantissa, exp []byte) error {
	if len(exp) > 0 && (exp[0] == '+' || exp[0] == '-') {
		exp = exp[1:]
	}
	if digits(mantissa) && digits(exp) {
		return ErrExponent
	}
	return ErrNotNumber
}

func digits(b []byte) bool {
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

// String is the amount with exactly 2 decimals: "1200.50", "-0.05".
func (a Amount) String() string {
	n := int64(a)
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	cents := n % 100
	s := sign + strconv.FormatInt(n/100, 10) + "."
	if cents < 10 {
		s += "0"
	}
	return s + strconv.FormatInt(cents, 10)
}

// MarshalJSON writes the amount as a JSON number with exactly 2 decimals.
func (a Amount) MarshalJSON() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalJSON reads a JSON number with Parse.
func (a *Amount) UnmarshalJSON(b []byte) error {
	v, err := Parse(b)
	if err != nil {
		return err
	}
	*a = v
	return nil
}
