package contracts

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The allocation orders: how a payment for the contract that names no
// charges is spread over its outstanding charges (modules/payments).
const (
	// OldestFirst: by due date, then creation.
	OldestFirst = "oldest_first"
	// RentFirst: the rent charges oldest first, then the rest oldest first.
	RentFirst = "rent_first"
	// DepositLast: oldest first, but the deposit and other one-off charges
	// after everything else.
	DepositLast = "deposit_last"
)

// AllocationOrders are the values of allocation_order.
var AllocationOrders = []string{OldestFirst, RentFirst, DepositLast}

// The late-fee bases: which charges a late fee is computed on
// (modules/penalties).
const (
	// BasePeriodic: charges billed by the contract's expenses (rent,
	// utility prepayment) or its meters. The deposit, refunds and fines
	// (one-off charges) are never the base of a late fee.
	BasePeriodic = "periodic"
	// BaseAll: every regular charge of the contract, the one-off ones too.
	BaseAll = "all"
)

// LateFeeBases are the values of late_fee_base.
var LateFeeBases = []string{BasePeriodic, BaseAll}

// applySettings copies the given money settings of req onto c, or returns
// one message per bad value.
func applySettings(c *Contract, req *contractRequest) []string {
	var details []string
	set := func(field string, v *string, allowed []string, dst *string) {
		if v == nil {
			return
		}
		s := strings.ToLower(strings.TrimSpace(*v))
		if !slices.Contains(allowed, s) {
			details = append(details, fmt.Sprintf("%s: must be one of %s", field, strings.Join(allowed, ", ")))
			return
		}
		*dst = s
	}
	set("allocation_order", req.AllocationOrder, AllocationOrders, &c.AllocationOrder)
	set("late_fee_base", req.LateFeeBase, LateFeeBases, &c.LateFeeBase)
	if req.DepositInterestRate != nil {
		if strings.TrimSpace(string(req.DepositInterestRate)) == "null" {
			c.DepositInterestE4 = nil
		} else if r, err := ParseInterestRate(req.DepositInterestRate); err != nil {
			details = append(details, "deposit_interest_rate: "+err.Error())
		} else {
			n := int64(r)
			c.DepositInterestE4 = &n
		}
	}
	return details
}

// InterestRate is a yearly interest rate in ten-thousandths of a percent
// (0.5 % is 5000): exact, as a rate is entered. JSON: the percentage as a
// number (0.5).
type InterestRate int64

// MaxInterestRate bounds a rate: 20 % a year.
const MaxInterestRate InterestRate = 200000

// ParseInterestRate reads a JSON number of percent per year: 0 to 20, at
// most 4 decimals.
func ParseInterestRate(raw []byte) (InterestRate, error) {
	errRate := errors.New("must be a number of percent per year from 0 to 20 with at most 4 decimals")
	s := strings.TrimSpace(string(raw))
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 2 || len(frac) > 4 || strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" ||
		(strings.Contains(s, ".") && frac == "") {
		return 0, errRate
	}
	n := int64(0)
	for _, d := range whole + (frac + "0000")[:4] {
		n = n*10 + int64(d-'0')
	}
	if r := InterestRate(n); r <= MaxInterestRate {
		return r, nil
	}
	return 0, errRate
}

// String is the percentage without trailing zeros: "0.5", "1.25", "3".
func (r InterestRate) String() string {
	s := fmt.Sprintf("%d.%04d", int64(r)/10000, int64(r)%10000)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// MarshalJSON writes the percentage as a JSON number.
func (r InterestRate) MarshalJSON() ([]byte, error) { return []byte(r.String()), nil }
