package opcosts

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// unitIn is what the computation knows of a unit of the building.
type unitIn struct {
	PropertyID uuid.UUID
	Name       string
	AreaCenti  *int64 // living area in hundredths of m²
	ShareE4    *int64 // share of the building in ten-thousandths
	Contracts  []occupancy
}

// occupancy is a contract's stay in a unit within the period.
type occupancy struct {
	ContractID uuid.UUID
	Number     string
	Locale     string
	From, To   period.Date
	// Persons holds the household sizes of the contract by date, oldest
	// first; each holds until the next.
	Persons                 []personsFrom
	Prepaid, PrepaidCharged money.Amount
}

type personsFrom struct {
	From    period.Date
	Persons int64
}

// billIn is an allocable bill of the period.
type billIn struct {
	PropertyID uuid.UUID
	Category   string
	Amount     money.Amount
}

// days is the number of days from..to, both included.
func days(from, to period.Date) int {
	return int(to.Time().Sub(from.Time()).Hours()/24) + 1
}

// share is total × num / den rounded half up to the cent (den > 0,
// total ≥ 0): big integers, so no product overflows.
func share(total money.Amount, num, den *big.Int) money.Amount {
	n := new(big.Int).Mul(big.NewInt(int64(total)), num)
	n.Mul(n, big.NewInt(2))
	n.Add(n, den)
	d := new(big.Int).Mul(den, big.NewInt(2))
	return money.Amount(n.Quo(n, d).Int64())
}

// personDays counts the persons of the occupancy day by day. ok is false
// when a day of the stay has no recorded size.
func (o occupancy) personDays() (int64, bool) {
	var sum int64
	for d := o.From; !d.After(o.To); d = d.AddDays(1) {
		n := int64(-1)
		for _, p := range o.Persons {
			if !p.From.After(d) {
				n = p.Persons
			}
		}
		if n < 0 {
			return 0, false
		}
		sum += n
	}
	return sum, true
}

func unprocessable(code, msg string) error { return apierror.New(422, code, msg) }

// compute spreads the bills of the period over the units by the keys and
// over the contracts by their days; what falls on days without a contract
// (vacancy) is the landlord's. Every line is rounded half up to the cent;
// the cents of rounding stay with the landlord too.
func compute(from, to period.Date, units []unitIn, bills []billIn, keys map[string]string) (*Computation, error) {
	pdays := days(from, to)
	out := &Computation{PeriodDays: pdays}
	totals := map[string]money.Amount{}
	direct := map[string]map[uuid.UUID]money.Amount{}
	for _, b := range bills {
		totals[b.Category] += b.Amount
		if direct[b.Category] == nil {
			direct[b.Category] = map[uuid.UUID]money.Amount{}
		}
		direct[b.Category][b.PropertyID] += b.Amount
	}
	cats := make([]string, 0, len(totals))
	for c := range totals {
		cats = append(cats, c)
	}
	slices.Sort(cats)
	lines := map[uuid.UUID]*ContractLine{}
	var order []uuid.UUID
	for _, u := range units {
		for _, o := range u.Contracts {
			lines[o.ContractID] = &ContractLine{ContractID: o.ContractID, ContractNumber: o.Number, PropertyID: u.PropertyID, Unit: u.Name,
				Locale: o.Locale, From: o.From, To: o.To, Days: days(o.From, o.To), Prepaid: o.Prepaid, PrepaidCharged: o.PrepaidCharged}
			order = append(order, o.ContractID)
		}
	}
	for _, cat := range cats {
		key := keys[cat]
		if key == "" {
			key = KeyArea
		}
		cl := CategoryLine{Category: cat, Key: key, Total: totals[cat]}
		// The weight of each unit under the key, and the building's sum.
		weight := map[uuid.UUID]int64{}
		var sum int64
		for _, u := range units {
			var w int64
			switch key {
			case KeyArea:
				if u.AreaCenti == nil || *u.AreaCenti <= 0 {
					return nil, unprocessable("key_weight_missing", fmt.Sprintf(
						"The unit %q has no living area recorded; the category %q is spread by area.", u.Name, cat))
				}
				w = *u.AreaCenti
			case KeyShare:
				if u.ShareE4 == nil || *u.ShareE4 <= 0 {
					return nil, unprocessable("key_weight_missing", fmt.Sprintf(
						"The unit %q has no share of the building recorded; the category %q is spread by share.", u.Name, cat))
				}
				w = *u.ShareE4
			case KeyUnits, KeyDirect:
				w = 1
			case KeyPersons:
				// Person-days: a day without a tenant counts as one person,
				// whose part the landlord bears.
				occupied := 0
				for _, o := range u.Contracts {
					pd, ok := o.personDays()
					if !ok {
						return nil, unprocessable("household_missing", fmt.Sprintf(
							"The contract %s (unit %q) has no household size recorded for every day from %s; the category %q is spread by persons.",
							o.Number, u.Name, o.From, cat))
					}
					w += pd
					occupied += days(o.From, o.To)
				}
				w += int64(pdays - occupied)
			}
			weight[u.PropertyID] = w
			sum += w
		}
		if sum <= 0 {
			return nil, unprocessable("key_sums_to_zero", fmt.Sprintf("The key %q of the category %q sums to zero over the building's units.", key, cat))
		}
		for _, u := range units {
			for _, o := range u.Contracts {
				line := lines[o.ContractID]
				c := CostLine{Category: cat, Key: key, Total: cl.Total, Days: line.Days, PeriodDays: pdays}
				var num, den *big.Int
				switch key {
				case KeyPersons:
					pd, _ := o.personDays()
					c.UnitValue, c.TotalValue = strconv.FormatInt(pd, 10), strconv.FormatInt(sum, 10)
					num, den = big.NewInt(pd), big.NewInt(sum)
				case KeyDirect:
					c.Total = direct[cat][u.PropertyID]
					c.UnitValue, c.TotalValue = "1", "1"
					num, den = big.NewInt(int64(line.Days)), big.NewInt(int64(pdays))
				default:
					c.UnitValue, c.TotalValue = decimal(key, weight[u.PropertyID]), decimal(key, sum)
					num = new(big.Int).Mul(big.NewInt(weight[u.PropertyID]), big.NewInt(int64(line.Days)))
					den = new(big.Int).Mul(big.NewInt(sum), big.NewInt(int64(pdays)))
				}
				if c.Total == 0 {
					continue
				}
				c.Amount = share(c.Total, num, den)
				line.Costs = append(line.Costs, c)
				line.CostTotal += c.Amount
				cl.Tenants += c.Amount
			}
		}
		cl.Landlord = cl.Total - cl.Tenants
		out.Categories = append(out.Categories, cl)
	}
	for _, id := range order {
		l := lines[id]
		l.Result = l.CostTotal - l.Prepaid
		out.Contracts = append(out.Contracts, *l)
	}
	return out, nil
}

// decimal writes a key's weight as a decimal: areas in m² with 2 places,
// shares with up to 4, counts as they are.
func decimal(key string, w int64) string {
	switch key {
	case KeyArea:
		return money.Amount(w).String()
	case KeyShare:
		s := fmt.Sprintf("%d.%04d", w/10000, w%10000)
		for s[len(s)-1] == '0' {
			s = s[:len(s)-1]
		}
		return strings.TrimSuffix(s, ".")
	}
	return strconv.FormatInt(w, 10)
}
