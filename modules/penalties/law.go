package penalties

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Config is the section modules.penalties.
type Config struct {
	// Interest is the statutory default interest by country code (upper
	// case): what a contract of a country whose agreement blocks forbid a
	// fixed late fee is charged when it claims the statutory form.
	Interest map[string]InterestRate
}

// InterestRate is a statutory default-interest rate: a reference rate the
// state publishes (Base) plus fixed percentage points the law adds
// (Points), percent a year, as decimal text read exactly.
type InterestRate struct {
	Base   string `koanf:"base"`
	Points string `koanf:"points"`
}

// DefaultInterest is the shipped rates. Germany: BGB §288(1), five
// percentage points above the base rate (Basiszinssatz, BGB §247), which
// the Deutsche Bundesbank publishes for each 1 January and 1 July; 1.27 %
// is the rate in force since 1 July 2025. An operator sets the current one
// with modules.penalties.interest.de.base (PROPMAN_MODULES_PENALTIES_INTEREST_DE_BASE).
// France has none: interest at the legal rate runs from a formal notice to
// pay (mise en demeure, Code civil art. 1231-6), a date the service does
// not record, so it cannot compute it from the due date.
var DefaultInterest = map[string]InterestRate{
	"DE": {Base: "1.27", Points: "5"},
}

// NewConfig reads modules.penalties over the defaults. A country's base
// or points left out keep their default.
func NewConfig(cfg *config.Config) (Config, error) {
	var raw struct {
		Interest map[string]struct {
			Base   *string `koanf:"base"`
			Points *string `koanf:"points"`
		} `koanf:"interest"`
	}
	if err := cfg.Module(Name, &raw); err != nil {
		return Config{}, err
	}
	c := Config{Interest: map[string]InterestRate{}}
	for country, r := range DefaultInterest {
		c.Interest[country] = r
	}
	keys := make([]string, 0, len(raw.Interest))
	for k := range raw.Interest {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		set := raw.Interest[k]
		country := strings.ToUpper(strings.TrimSpace(k))
		r := c.Interest[country]
		if set.Base != nil {
			r.Base = strings.TrimSpace(*set.Base)
		}
		if set.Points != nil {
			r.Points = strings.TrimSpace(*set.Points)
		}
		if _, err := r.Percent(); err != nil {
			return Config{}, &config.Error{Key: "modules.penalties.interest." + strings.ToLower(country), Reason: err.Error()}
		}
		c.Interest[country] = r
	}
	return c, nil
}

// Percent is Base + Points, percent a year, exactly.
func (r InterestRate) Percent() (*big.Rat, error) {
	base, ok := new(big.Rat).SetString(r.Base)
	if r.Base == "" || !ok || strings.ContainsAny(r.Base, "/eE") {
		return nil, fmt.Errorf("base %q is not a decimal number of percent (such as 1.27 or -0.88)", r.Base)
	}
	points, ok := new(big.Rat).SetString(r.Points)
	if r.Points == "" || !ok || strings.ContainsAny(r.Points, "/eE") {
		return nil, fmt.Errorf("points %q is not a decimal number of percentage points (such as 5)", r.Points)
	}
	return base.Add(base, points), nil
}

// rule is how the late fee of one contract is computed: a fixed
// percentage, statutory interest, or none with the reason.
type rule struct {
	number   string
	percent  string
	interest *big.Rat
	refused  string
}

// fee is the late fee of the overdue charge c on today.
func (r rule) fee(c *expenses.Charge, today period.Date) (money.Amount, error) {
	if r.interest != nil {
		days := int(today.Time().Sub(c.DueDate.Time()).Hours() / 24)
		return Interest(c.Outstanding(), r.interest, days)
	}
	return Fee(c.Outstanding(), r.percent)
}

// rules decides, for each contract of a property in country, how its late
// fee is computed. A country whose agreement blocks include its
// statutory-interest block (contracts.StatutoryInterestCode) allows no
// fixed late fee: a contract there gets the statutory interest when its
// terms claim it (the block set to true) and a rate is configured, and
// is refused otherwise.
func (s *Service) rules(ctx context.Context, country string, fees map[uuid.UUID]contracts.LateFee) (map[uuid.UUID]rule, error) {
	code := contracts.StatutoryInterestCode(country)
	found, err := s.blocks.ByCodes(ctx, s.db, []string{code})
	if err != nil {
		return nil, err
	}
	forbidden := false
	for _, b := range found {
		forbidden = forbidden || (b.CountryCode != nil && strings.EqualFold(*b.CountryCode, country))
	}
	out := make(map[uuid.UUID]rule, len(fees))
	for id, f := range fees {
		r := rule{number: f.Number}
		switch {
		case !forbidden && f.Percent == "":
			continue
		case !forbidden:
			r.percent = f.Percent
		case f.Statutory:
			rate, ok := s.cfg.Interest[strings.ToUpper(country)]
			if !ok {
				r.refused = fmt.Sprintf("contract %s: the service has no statutory interest rate for %s (modules.penalties.interest.%s)",
					f.Number, strings.ToUpper(country), strings.ToLower(country))
				break
			}
			if r.interest, err = rate.Percent(); err != nil {
				return nil, err
			}
		default:
			r.refused = fmt.Sprintf("contract %s: a fixed late fee (%s) is not allowed in %s; a contract there may claim statutory default interest (%s)",
				f.Number, contracts.CodeLateFee, strings.ToUpper(country), code)
		}
		out[id] = r
	}
	return out, nil
}

// errNotAllowed is the 422 of a refresh that would charge a late fee the
// law of the property's country does not allow: one detail per contract.
func errNotAllowed(details []string) error {
	sort.Strings(details)
	e := fault.New(fault.KindUnprocessable, codeNotAllowed,
		"The law of the property's country does not allow this late fee; nothing was charged.")
	e.Details = details
	return e
}
