package opcosts

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// unitIn is what the computation knows of a unit of the building.
type unitIn struct {
	PropertyID uuid.UUID
	Name       string
	AreaCenti  *int64 // living area in hundredths of m²
	ShareE4    *int64 // share of the building in ten-thousandths
	// NonResidential: let for another use than dwelling (§ 8
	// CO2KostAufG).
	NonResidential bool
	Contracts      []occupancy
	// Meters are the unit's counters of the kinds a metered category is
	// spread by, with their readings around the period.
	Meters []meterIn
}

// meterIn is a counter of a unit and its readings, oldest first.
type meterIn struct {
	Kind, Unit string
	Readings   []readingIn
}

// readingIn is a reading: the value (in thousandths) at the end of a day.
type readingIn struct {
	On    period.Date
	Value int64
}

// at is the meter's value at the end of day d: between two readings it
// grows evenly by day (a reading on another day than the period's bounds,
// or a meter replaced within the period, is prorated so); before the
// first reading and after the last it holds, as the meter counted nothing
// there.
func (m meterIn) at(d period.Date) *big.Rat {
	rs := m.Readings
	if !d.After(rs[0].On) {
		return new(big.Rat).SetInt64(rs[0].Value)
	}
	for i := 1; i < len(rs); i++ {
		if d.After(rs[i].On) {
			continue
		}
		a, b := rs[i-1], rs[i]
		v := new(big.Rat).SetFrac64((b.Value-a.Value)*int64(days(a.On, d)-1), int64(days(a.On, b.On)-1))
		return v.Add(v, new(big.Rat).SetInt64(a.Value))
	}
	return new(big.Rat).SetInt64(rs[len(rs)-1].Value)
}

// use is what the meter counted from the start of day from to the end of
// day to; ok false when its readings span none of it.
func (m meterIn) use(from, to period.Date) (*big.Rat, bool) {
	if len(m.Readings) < 2 || !m.Readings[0].On.Before(to) || !m.Readings[len(m.Readings)-1].On.After(from.AddDays(-1)) {
		return new(big.Rat), false
	}
	v := m.at(to)
	return v.Sub(v, m.at(from.AddDays(-1))), true
}

// consumption is what the meters of kinds counted from..to in thousandths,
// rounded half up; ok false when none of them has readings spanning part
// of it.
func consumption(meters []meterIn, kinds []string, from, to period.Date) (int64, bool) {
	sum := new(big.Rat)
	ok := false
	for _, m := range meters {
		if !slices.Contains(kinds, m.Kind) {
			continue
		}
		if v, covered := m.use(from, to); covered {
			sum.Add(sum, v)
			ok = true
		}
	}
	n := new(big.Int).Mul(sum.Num(), big.NewInt(2))
	n.Add(n, sum.Denom())
	return n.Quo(n, new(big.Int).Mul(sum.Denom(), big.NewInt(2))).Int64(), ok
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
	// Monthly is the monthly prepayment the contract's terms set.
	Monthly money.Amount
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

func unprocessable(code, msg string) error { return fault.New(fault.KindUnprocessable, code, msg) }

// part is what one key spreads of a category: the whole bill, or under
// HeizKV the basic costs by area and the consumption costs by the meters.
type part struct {
	Key, Name string
	Percent   int
	Total     money.Amount
}

// settings is how the statement spreads: the key of each category, the
// consumption share of a category spread per HeizKV, the counter kinds of
// each metered category and the CO2 cost of the heating (nil: none).
type settings struct {
	Keys   map[string]string
	Shares map[string]int
	Kinds  map[string][]string
	CO2    *CO2Input
	// Estimate: a unit without readings of a HeizKV category has its
	// consumption estimated (§ 9a HeizKV) instead of a 422.
	Estimate bool
}

// compute spreads the bills of the period over the units by the keys and
// over the contracts by their days; what falls on days without a contract
// (vacancy) is the landlord's. Every line is rounded half up to the cent;
// the cents of rounding stay with the landlord too.
func compute(from, to period.Date, units []unitIn, bills []billIn, set settings) (*Computation, error) {
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
				Locale: o.Locale, From: o.From, To: o.To, Days: days(o.From, o.To), Prepaid: o.Prepaid, PrepaidCharged: o.PrepaidCharged,
				PrepaymentMonthly: o.Monthly}
			order = append(order, o.ContractID)
		}
	}
	for _, cat := range cats {
		key := set.Keys[cat]
		if key == "" {
			key = KeyArea
		}
		cl := CategoryLine{Category: cat, Key: key, Total: totals[cat]}
		parts := []part{{Key: key, Name: PartAll, Percent: 100, Total: cl.Total}}
		spreadOver := units
		if key == KeyHeizKV {
			p := set.Shares[cat]
			metered := share(cl.Total, big.NewInt(int64(p)), big.NewInt(100))
			parts = []part{{Key: KeyArea, Name: PartBase, Percent: 100 - p, Total: cl.Total - metered},
				{Key: KeyConsumption, Name: PartConsumption, Percent: p, Total: metered}}
			if set.Estimate {
				est, withEstimates, err := estimate(cat, from, to, units, set.Kinds[cat])
				if err != nil {
					return nil, err
				}
				out.Estimates = append(out.Estimates, est...)
				if withEstimates == nil {
					// § 9a Abs. 2 HeizKV: by area alone.
					parts, cl.AreaOnly = []part{{Key: KeyArea, Name: PartAll, Percent: 100, Total: cl.Total}}, true
				} else {
					spreadOver = withEstimates
				}
			}
		}
		for _, pt := range parts {
			tenants, err := spread(cat, pt, from, to, pdays, spreadOver, direct[cat], set.Kinds[cat], lines)
			if err != nil {
				return nil, err
			}
			cl.Tenants += tenants
		}
		cl.Landlord = cl.Total - cl.Tenants
		out.Categories = append(out.Categories, cl)
	}
	if set.CO2 != nil {
		if err := splitCO2(out, units, totals[CategoryHeating]+totals[CategoryHotWater], set.CO2, pdays, lines, order); err != nil {
			return nil, err
		}
	}
	for _, id := range order {
		l := lines[id]
		l.Result = l.CostTotal - l.Prepaid
		l.ProposedPrepayment = proposed(l.PrepaymentMonthly, l.Result)
		out.Contracts = append(out.Contracts, *l)
	}
	return out, nil
}

// spread spreads one part of a category over the contracts' lines and
// answers what the tenants bear of it.
func spread(cat string, pt part, from, to period.Date, pdays int, units []unitIn, direct map[uuid.UUID]money.Amount, kinds []string,
	lines map[uuid.UUID]*ContractLine) (money.Amount, error) {
	key := pt.Key
	// The weight of each unit under the key, and the building's sum.
	weight := map[uuid.UUID]int64{}
	used := map[uuid.UUID]int64{} // a contract's consumption in its days
	measure := ""
	var sum int64
	for _, u := range units {
		var w int64
		switch key {
		case KeyArea:
			if u.AreaCenti == nil || *u.AreaCenti <= 0 {
				return 0, unprocessable("key_weight_missing", fmt.Sprintf(
					"The unit %q has no living area recorded; the category %q is spread by area.", u.Name, cat))
			}
			w = *u.AreaCenti
		case KeyShare:
			if u.ShareE4 == nil || *u.ShareE4 <= 0 {
				return 0, unprocessable("key_weight_missing", fmt.Sprintf(
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
					return 0, unprocessable("household_missing", fmt.Sprintf(
						"The contract %s (unit %q) has no household size recorded for every day from %s; the category %q is spread by persons.",
						o.Number, u.Name, o.From, cat))
				}
				w += pd
				occupied += days(o.From, o.To)
			}
			w += int64(pdays - occupied)
		case KeyConsumption:
			var ok bool
			w, ok = consumption(u.Meters, kinds, from, to)
			if !ok {
				return 0, unprocessable("readings_missing", fmt.Sprintf(
					"The unit %q has no meter (%s) with readings in the period; the category %q is spread by consumption.",
					u.Name, strings.Join(kinds, ", "), cat))
			}
			for _, m := range u.Meters {
				if !slices.Contains(kinds, m.Kind) {
					continue
				}
				if measure != "" && m.Unit != measure {
					return 0, unprocessable("meter_units_differ", fmt.Sprintf(
						"The unit %q has a meter counting in %s, others count in %s; the category %q is spread by consumption.",
						u.Name, m.Unit, measure, cat))
				}
				measure = m.Unit
			}
			for _, o := range u.Contracts {
				used[o.ContractID], _ = consumption(u.Meters, kinds, o.From, o.To)
			}
		}
		weight[u.PropertyID] = w
		sum += w
	}
	if sum <= 0 {
		return 0, unprocessable("key_sums_to_zero", fmt.Sprintf("The key %q of the category %q sums to zero over the building's units.", key, cat))
	}
	var tenants money.Amount
	for _, u := range units {
		for _, o := range u.Contracts {
			line := lines[o.ContractID]
			c := CostLine{Category: cat, Key: key, Part: pt.Name, Percent: pt.Percent, Total: pt.Total, Days: line.Days, PeriodDays: pdays}
			var num, den *big.Int
			switch key {
			case KeyPersons:
				pd, _ := o.personDays()
				c.UnitValue, c.TotalValue = strconv.FormatInt(pd, 10), strconv.FormatInt(sum, 10)
				num, den = big.NewInt(pd), big.NewInt(sum)
			case KeyDirect:
				c.Total = direct[u.PropertyID]
				c.UnitValue, c.TotalValue = "1", "1"
				num, den = big.NewInt(int64(line.Days)), big.NewInt(int64(pdays))
			case KeyConsumption:
				c.UnitValue, c.TotalValue, c.Measure = quantity(used[o.ContractID]), quantity(sum), &measure
				num, den = big.NewInt(used[o.ContractID]), big.NewInt(sum)
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
			tenants += c.Amount
		}
	}
	return tenants, nil
}

// estimate replaces, for a HeizKV category, the consumption of each unit
// whose meters of kinds have no readings in the period (§ 9a HeizKV):
// while those units hold at most 25 % of the living area, each gets the
// building's average consumption per m² of the units read, times its
// area, as a meter growing evenly over the period (so its tenants' days
// and its empty days share it as a read meter's would); above 25 % the
// answer's units are nil and the category goes by area alone (Abs. 2).
// § 9a Abs. 1 also allows earlier periods or comparable rooms; the
// building's average is the one the data at hand always allow.
func estimate(cat string, from, to period.Date, units []unitIn, kinds []string) ([]Estimate, []unitIn, error) {
	var missing []int
	var area, missingArea, readArea, readUse int64
	measure := ""
	for i, u := range units {
		if u.AreaCenti == nil || *u.AreaCenti <= 0 {
			return nil, nil, unprocessable("key_weight_missing", fmt.Sprintf(
				"The unit %q has no living area recorded; the category %q is spread by area and consumption (HeizKV).", u.Name, cat))
		}
		area += *u.AreaCenti
		use, ok := consumption(u.Meters, kinds, from, to)
		if !ok {
			missing = append(missing, i)
			missingArea += *u.AreaCenti
			continue
		}
		readArea += *u.AreaCenti
		readUse += use
		for _, m := range u.Meters {
			if measure == "" && slices.Contains(kinds, m.Kind) {
				measure = m.Unit
			}
		}
	}
	if len(missing) == 0 {
		return nil, units, nil
	}
	pct := share(money.Amount(missingArea), big.NewInt(10000), big.NewInt(area))
	method := EstimateAverage
	if missingArea*4 > area || readUse <= 0 {
		method = EstimateAreaOnly
	}
	out := make([]Estimate, 0, len(missing))
	with := slices.Clone(units)
	for _, i := range missing {
		u := units[i]
		e := Estimate{Category: cat, PropertyID: u.PropertyID, Unit: u.Name, Method: method, AreaPercent: pct.String()}
		if method == EstimateAverage {
			v := share(money.Amount(readUse), big.NewInt(*u.AreaCenti), big.NewInt(readArea))
			q, ms := quantity(int64(v)), measure
			e.Consumption, e.Measure = &q, &ms
			with[i].Meters = append(slices.Clone(u.Meters), meterIn{Kind: kinds[0], Unit: measure,
				Readings: []readingIn{{On: from.AddDays(-1), Value: 0}, {On: to, Value: int64(v)}}})
		}
		out = append(out, e)
	}
	if method == EstimateAreaOnly {
		return out, nil, nil
	}
	return out, with, nil
}

// quantity writes thousandths of a meter's unit with 3 decimals.
func quantity(v int64) string { return fmt.Sprintf("%d.%03d", v/1000, v%1000) }

// co2Tiers are the lower bounds (kg CO2 per m² of living area and year)
// of the ten tiers of the Anlage zu § 5 CO2KostAufG, with the landlord's
// share of the CO2 cost from each.
var co2Tiers = []struct{ From, Landlord int }{
	{0, 0}, {12, 10}, {17, 20}, {22, 30}, {27, 40}, {32, 50}, {37, 60}, {42, 70}, {47, 80}, {52, 95},
}

// splitCO2 takes the landlord's share of the heating's CO2 cost
// (CO2KostAufG) off each tenant: the building's emissions per m² of
// living area and year give the tier; each tenant's part of the CO2 cost
// follows their part of the heating costs, and the landlord's percentage
// of it is deducted.
func splitCO2(out *Computation, units []unitIn, heating money.Amount, in *CO2Input, pdays int, lines map[uuid.UUID]*ContractLine, order []uuid.UUID) error {
	if heating <= 0 {
		return fault.Validation("co2: the period has no heating bill to take the CO2 cost from")
	}
	if in.Cost > heating {
		return fault.Validation(fmt.Sprintf("co2.cost: must not exceed the heating costs of the period (%s)", heating))
	}
	var area int64
	for _, u := range units {
		if u.AreaCenti == nil || *u.AreaCenti <= 0 {
			return unprocessable("key_weight_missing", fmt.Sprintf(
				"The unit %q has no living area recorded; the CO2 cost is split by the building's emissions per m².", u.Name))
		}
		area += *u.AreaCenti
	}
	// kg / m² (both in hundredths), per year when the period is shorter.
	per := new(big.Rat).SetFrac(big.NewInt(int64(in.EmissionsKg)), big.NewInt(area))
	if pdays < 365 {
		per.Mul(per, big.NewRat(365, int64(pdays)))
	}
	tier := 0
	for i, t := range co2Tiers {
		if per.Cmp(new(big.Rat).SetInt64(int64(t.From))) >= 0 {
			tier = i
		}
	}
	pct := co2Tiers[tier].Landlord
	// shown in hundredths, rounded half up
	hundredths := new(big.Int).Quo(new(big.Int).Add(new(big.Int).Mul(per.Num(), big.NewInt(200)), per.Denom()), new(big.Int).Mul(per.Denom(), big.NewInt(2)))
	nonResidential := map[uuid.UUID]bool{}
	for _, u := range units {
		nonResidential[u.PropertyID] = u.NonResidential
	}
	split := &CO2Split{Cost: in.Cost, EmissionsKg: in.EmissionsKg.String(), LivingArea: money.Amount(area).String(),
		KgPerM2: money.Amount(hundredths.Int64()).String(), Tier: tier + 1, LandlordPercent: pct, TenantPercent: 100 - pct}
	for _, id := range order {
		l := lines[id]
		var heat money.Amount
		for _, c := range l.Costs {
			if warm(c.Category) {
				heat += c.Amount
			}
		}
		// § 8 Abs. 1 CO2KostAufG: premises let for another use than
		// dwelling split the CO2 cost 50/50, whatever the tier.
		linePct := pct
		if nonResidential[l.PropertyID] {
			linePct = 50
		}
		if heat == 0 || linePct == 0 {
			continue
		}
		d := share(in.Cost, new(big.Int).Mul(big.NewInt(int64(heat)), big.NewInt(int64(linePct))), new(big.Int).Mul(big.NewInt(int64(heating)), big.NewInt(100)))
		l.Costs = append(l.Costs, CostLine{Category: CategoryCO2, Key: KeyCO2, Part: PartAll, Percent: linePct, Total: in.Cost,
			UnitValue: heat.String(), TotalValue: heating.String(), Days: l.Days, PeriodDays: pdays, Amount: -d,
			NonResidential: nonResidential[l.PropertyID]})
		l.CostTotal -= d
		split.Landlord += d
	}
	out.CO2 = split
	out.Categories = append(out.Categories, CategoryLine{Category: CategoryCO2, Key: KeyCO2, Tenants: -split.Landlord, Landlord: split.Landlord})
	return nil
}

// proposed is the new monthly prepayment proposed after a result: the
// current one plus a twelfth of the result, rounded half up to whole
// units of the currency, never below zero.
func proposed(current, result money.Amount) money.Amount {
	x := 12*int64(current) + int64(result)
	if x <= 0 {
		return 0
	}
	return money.Amount((x + 600) / 1200 * 100)
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
