package taxyear

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The depreciation methods propman computes.
const (
	// MethodLinear is Germany's linear AfA of a building (§ 7 Abs. 4
	// EStG): a fixed rate of the basis a year, the first year pro rata
	// temporis by month, the month of acquisition counting in full.
	MethodLinear = "linear"
	// MethodMidMonth275 is the US depreciation of residential rental
	// property: GDS, 27.5 years straight line, mid-month convention, at
	// the percentages of IRS Publication 946, table A-6.
	MethodMidMonth275 = "mid_month_27_5"
)

// MaxBasis bounds a basis: 999,999,999.99 in the property's currency.
const MaxBasis = money.Amount(99_999_999_999)

// Basis is a property's depreciation basis: the building's cost without
// the land, the day it was acquired or completed (placed in service),
// and its country's rule.
type Basis struct {
	bun.BaseModel `bun:"table:taxyear_depreciation"`

	PropertyID    uuid.UUID    `bun:"property_id,pk"`
	WorkspaceID   int64        `bun:"workspace_id,notnull"`
	Method        string       `bun:"method,notnull"`
	Basis         money.Amount `bun:"basis_minor,notnull"`
	Currency      string       `bun:"currency,notnull"`
	PlacedOn      period.Date  `bun:"placed_on,notnull"`
	CompletedYear *int         `bun:"completed_year"`
	// RateCenti is the yearly rate in hundredths of a percent (200 is
	// 2 %); for the US method 0: its table holds the rates.
	RateCenti int64     `bun:"rate_centi,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`
}

// BasisInput is a basis as the handler read it; nil fields were absent.
type BasisInput struct {
	Basis         *money.Amount
	PlacedOn      *period.Date
	CompletedYear *int
	RateCenti     *int64
}

// germanRate is the rate of § 7 Abs. 4 Satz 1 EStG for a building
// completed in year, in hundredths of a percent: 3 % after 2022 (Nr. 2
// Buchst. a since the JStG 2022), 2 % from 1925 to 2022, 2.5 % before
// 1925.
func germanRate(completed int) int64 {
	switch {
	case completed > 2022:
		return 300
	case completed < 1925:
		return 250
	}
	return 200
}

// rateText writes hundredths of a percent as a percentage: 2, 2.5, 3.
func rateText(c int64) string {
	if c%100 == 0 {
		return fmt.Sprint(c / 100)
	}
	if c%10 == 0 {
		return fmt.Sprintf("%d.%d", c/100, c%100/10)
	}
	return fmt.Sprintf("%d.%02d", c/100, c%100)
}

// checkBasis applies the rules of the property's country to in and
// fills b; the details name each field refused.
func checkBasis(prop *properties.Property, in BasisInput, b *Basis) []string {
	var details []string
	switch prop.CountryCode {
	case "DE":
		b.Method = MethodLinear
	case "US":
		b.Method = MethodMidMonth275
	case "FR":
		return []string{"basis: a property in FR let unfurnished (déclaration 2044, revenus fonciers) is not depreciated: the form has no such line"}
	case "GB":
		return []string{"basis: residential property in GB is not depreciated (SA105 has no such box; capital allowances exclude dwellings)"}
	default:
		return []string{"basis: propman computes depreciation for DE (§ 7 Abs. 4 EStG) and US (IRS Pub. 946) properties only, not " + prop.CountryCode}
	}
	switch {
	case in.Basis == nil:
		details = append(details, "basis: is required (the building's cost without the land)")
	case *in.Basis <= 0:
		details = append(details, "basis: must be more than 0")
	case *in.Basis > MaxBasis:
		details = append(details, "basis: must be at most "+MaxBasis.String())
	default:
		b.Basis = *in.Basis
	}
	switch {
	case in.PlacedOn == nil:
		details = append(details, "placed_in_service_on: is required (the day the building was acquired or completed)")
	case in.PlacedOn.Year() < 1800 || in.PlacedOn.Year() > MaxYear:
		details = append(details, fmt.Sprintf("placed_in_service_on: must be a date from 1800 to %d", MaxYear))
	default:
		b.PlacedOn = *in.PlacedOn
	}
	b.CompletedYear = in.CompletedYear
	if b.Method == MethodMidMonth275 {
		if in.RateCenti != nil {
			details = append(details, "rate: must be absent for a US property: residential rental property is depreciated over 27.5 years, "+
				"straight line, mid-month (IRS Pub. 946, table A-6); there is no rate to choose")
		}
		if in.CompletedYear != nil && (*in.CompletedYear < 1000 || *in.CompletedYear > MaxYear) {
			details = append(details, fmt.Sprintf("completed_year: must be a year from 1000 to %d", MaxYear))
		}
		b.RateCenti = 0
		return details
	}
	switch {
	case in.CompletedYear == nil:
		details = append(details, "completed_year: is required for a German building: it decides the rate of § 7 Abs. 4 EStG")
	case *in.CompletedYear < 1000 || *in.CompletedYear > MaxYear:
		details = append(details, fmt.Sprintf("completed_year: must be a year from 1000 to %d", MaxYear))
	case in.PlacedOn != nil && *in.CompletedYear > in.PlacedOn.Year():
		details = append(details, "completed_year: must not be after the year of placed_in_service_on: the AfA starts when the building is completed")
	default:
		want := germanRate(*in.CompletedYear)
		b.RateCenti = want
		if in.RateCenti != nil && *in.RateCenti != want {
			details = append(details, fmt.Sprintf("rate: must be %s for a building completed in %d (§ 7 Abs. 4 EStG: 3 %% after 2022, "+
				"2 %% from 1925 to 2022, 2.5 %% before 1925), or absent", rateText(want), *in.CompletedYear))
		}
	}
	return details
}

// div rounds n/d half up (n, d >= 0).
func div(n, d int64) int64 { return (n + d/2) / d }

// usTableA6 is the percentage of IRS Publication 946, table A-6
// (residential rental property, mid-month convention, straight line,
// 27.5 years), in thousandths of a percent, for the recovery year
// (1..29) of property placed in service in month (1..12).
func usTableA6(year, month int) int64 {
	first := int64(3485 - 303*(month-1)) // 3.485 % in January ... 0.152 % in December
	// Years 10 to 27 alternate 3.637 and 3.636: the even years take
	// 3.637 for property placed in January to June, the odd years for
	// July to December.
	middle := func(y int) int64 {
		if (y%2 == 0) == (month <= 6) {
			return 3637
		}
		return 3636
	}
	switch {
	case year < 1 || year > 29:
		return 0
	case year == 1:
		return first
	case year <= 9:
		return 3636
	case year <= 27:
		return middle(year)
	}
	sum := first + 8*3636
	for y := 10; y <= 27; y++ {
		sum += middle(y)
	}
	if month <= 6 {
		if year == 28 {
			return 100000 - sum
		}
		return 0
	}
	if year == 28 {
		return 3636
	}
	return 100000 - sum - 3636
}

// yearAmount is the depreciation of the calendar year: nothing before
// the year placed in service; never more in total than the basis (the
// year that reaches it takes the rest, the years after nothing).
func (b *Basis) yearAmount(year int) money.Amount {
	placed := b.PlacedOn.Year()
	if year < placed {
		return 0
	}
	basis := int64(b.Basis)
	month := int(b.PlacedOn.Month())
	var done int64
	for y := placed; ; y++ {
		var v int64
		switch b.Method {
		case MethodLinear:
			if y == placed {
				// Pro rata temporis: the month of acquisition counts.
				v = div(basis*b.RateCenti*int64(13-month), 120000)
			} else {
				v = div(basis*b.RateCenti, 10000)
			}
		case MethodMidMonth275:
			v = div(basis*usTableA6(y-placed+1, month), 100000)
			if y-placed+1 == 29 || y-placed+1 == 28 && month <= 6 {
				v = basis - done // the last year takes the rounding's rest
			}
		}
		v = min(v, basis-done)
		if y == year {
			return money.Amount(v)
		}
		done += v
		if done >= basis {
			return 0
		}
	}
}

// Depreciation returns the property's basis; ErrNoBasis when none.
func (s *Service) Depreciation(ctx context.Context, prop *properties.Property) (*Basis, error) {
	return s.store.basis(ctx, prop.ID)
}

// SetDepreciation records the property's basis (replacing any), after
// the rules of its country.
func (s *Service) SetDepreciation(ctx context.Context, prop *properties.Property, in BasisInput) (*Basis, error) {
	now := s.clock.Now().UTC().Truncate(time.Microsecond)
	b := &Basis{PropertyID: prop.ID, WorkspaceID: prop.WorkspaceID, Currency: prop.Currency, CreatedAt: now, UpdatedAt: now}
	if details := checkBasis(prop, in, b); len(details) > 0 {
		return nil, &InvalidError{Details: details}
	}
	if err := s.store.putBasis(ctx, b); err != nil {
		return nil, err
	}
	return s.store.basis(ctx, prop.ID)
}

// DeleteDepreciation removes the property's basis; ErrNoBasis when none.
func (s *Service) DeleteDepreciation(ctx context.Context, prop *properties.Property) error {
	return s.store.deleteBasis(ctx, prop.ID)
}
