package contracts

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// CodeLateFee is the late fee, a percentage of what is overdue
// (modules/penalties).
const CodeLateFee = "LATE_FEE_PERCENTAGE"

// CodeLateFeeOnFines is the block that, set to true, extends the late fee
// (or the statutory interest) to the contract's fines (modules/violations);
// without it a fine bears none.
const CodeLateFeeOnFines = "LATE_FEE_ON_FINES"

// StatutoryInterestSuffix ends the code of a country's statutory-interest
// block (DE_STATUTORY_INTEREST, FR_STATUTORY_INTEREST). A country whose
// catalogue has one says by it that a fixed late fee is not allowed there
// and that default interest at the statutory rate is what the landlord may
// claim; a contract claims it by setting the block to true.
const StatutoryInterestSuffix = "_STATUTORY_INTEREST"

// StatutoryInterestCode is the statutory-interest block of a country.
func StatutoryInterestCode(country string) string {
	return strings.ToUpper(country) + StatutoryInterestSuffix
}

// LateFee is what a contract's terms and settings say about late fees.
type LateFee struct {
	// Number is the contract's number, for messages.
	Number string
	// Percent is LATE_FEE_PERCENTAGE as stored: decimal text such as "5"
	// or "2.5" (never an exponent), for exact arithmetic; "" when unset.
	Percent string
	// Statutory is true when the terms set the country's
	// statutory-interest block to true.
	Statutory bool
	// Base is the contract's late_fee_base (BasePeriodic or BaseAll).
	Base string
	// Fines is true when the terms set LATE_FEE_ON_FINES to true.
	Fines bool
}

// LateFees returns, through db, by contract id, what every contract of the
// property that left draft (active, terminated or ended) says about late
// fees, for those whose terms set LATE_FEE_PERCENTAGE or the
// statutory-interest block of country (the property's) to true.
func LateFees(ctx context.Context, db bun.IDB, propertyID uuid.UUID, country string) (map[uuid.UUID]LateFee, error) {
	list, err := signedOf(ctx, db, propertyID)
	if err != nil {
		return nil, err
	}
	statutory := StatutoryInterestCode(country)
	out := map[uuid.UUID]LateFee{}
	for i := range list {
		f := LateFee{Number: list[i].Number, Base: list[i].LateFeeBase}
		for _, t := range list[i].TermList() {
			switch t.Code {
			case CodeLateFee:
				f.Percent = string(t.Value)
			case statutory:
				f.Statutory = string(t.Value) == "true"
			case CodeLateFeeOnFines:
				f.Fines = string(t.Value) == "true"
			}
		}
		if f.Percent != "" || f.Statutory {
			out[list[i].ID] = f
		}
	}
	return out, nil
}
