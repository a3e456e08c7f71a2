package contracts

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/money"
)

// Index is the price index a rent change follows, as its letter states
// it: the index, its value at the last change (or the start) and now, and
// their periods (YYYY-MM; YYYY-Qn for a quarterly index such as the IRL).
// Values are decimal text, kept as entered.
type Index struct {
	Name      string `json:"name"`
	OldPeriod string `json:"old_period"`
	OldValue  string `json:"old_value"`
	NewPeriod string `json:"new_period"`
	NewValue  string `json:"new_value"`
}

var (
	monthPeriod   = regexp.MustCompile(`^\d{4}-(0[1-9]|1[0-2])$`)
	quarterPeriod = regexp.MustCompile(`^\d{4}-Q[1-4]$`)
	indexValue    = regexp.MustCompile(`^\d{1,6}(\.\d{1,3})?$`)
)

// check names what is wrong with ix under rule: a country whose law
// requires the index data (platform/law) refuses a change without them.
func (ix *Index) check(rule law.IndexRule) []string {
	if ix == nil {
		if rule.Required {
			return []string{fmt.Sprintf("index: is required: a rent change must state the index, its old and new values and their periods (%s)", rule.Source)}
		}
		return nil
	}
	var details []string
	period, shape := monthPeriod, "YYYY-MM"
	if rule.Quarterly {
		period, shape = quarterPeriod, "YYYY-Qn (the quarter of the index)"
	}
	ix.Name = strings.TrimSpace(ix.Name)
	if ix.Name == "" {
		ix.Name = rule.Name
	}
	if ix.Name == "" || len([]rune(ix.Name)) > 200 {
		details = append(details, "index.name: must name the index (1-200 characters)")
	}
	for _, f := range []struct{ name, v string }{{"old_period", ix.OldPeriod}, {"new_period", ix.NewPeriod}} {
		if !period.MatchString(f.v) {
			details = append(details, "index."+f.name+": must be "+shape)
		}
	}
	for _, f := range []struct{ name, v string }{{"old_value", ix.OldValue}, {"new_value", ix.NewValue}} {
		if !indexValue.MatchString(f.v) || f.v == "0" || strings.Trim(f.v, "0.") == "" {
			details = append(details, "index."+f.name+": must be a positive decimal with at most 3 decimals, as a string (\"117.8\")")
		}
	}
	if len(details) == 0 && ix.NewPeriod <= ix.OldPeriod {
		details = append(details, "index.new_period: must be after index.old_period")
	}
	return details
}

// ratio is new over old.
func (ix *Index) ratio() *big.Rat {
	old, _ := new(big.Rat).SetString(ix.OldValue)
	cur, _ := new(big.Rat).SetString(ix.NewValue)
	return new(big.Rat).Quo(cur, old)
}

// Percent is the index's change in percent, to two decimals ("2.35").
func (ix *Index) Percent() string {
	r := new(big.Rat).Sub(ix.ratio(), big.NewRat(1, 1))
	return r.Mul(r, big.NewRat(100, 1)).FloatString(2)
}

// cap is the highest rent the index allows from old: old times the
// index's change, rounded up to the cent.
func (ix *Index) cap(old money.Amount) money.Amount {
	r := new(big.Rat).Mul(new(big.Rat).SetInt64(int64(old)), ix.ratio())
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return money.Amount(q.Int64())
}

// errAboveIndex is the 422 of a new rent above what the index allows.
func errAboveIndex(ix *Index, old, limit money.Amount, currency string) error {
	return fault.New(fault.KindUnprocessable, "rent_exceeds_index", fmt.Sprintf(
		"The index changed by %s %%: the rent of %s %s may rise to %s %s at most; nothing was changed.",
		ix.Percent(), old, currency, limit, currency))
}
