package opcosts

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/buildings"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
)

// say is the catalogue's text of opcosts.<key> in locale with its
// {placeholders} filled from vars (name, value pairs); the key itself when
// missing, so a missing word shows in tests.
func (s *Service) say(locale, key string, vars ...string) string {
	key = "opcosts." + key
	text := key
	if t, _ := s.p.Dicts.Select(locale, []string{key}); t[key] != "" {
		text = t[key]
	}
	pairs := make([]string, 0, len(vars))
	for i := 0; i+1 < len(vars); i += 2 {
		pairs = append(pairs, "{"+vars[i]+"}", vars[i+1])
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// PDF is the letter of one contract of the statement in locale, else the
// contract's: every cost with its key, the building's total, the unit's
// value against the building's, the days and the amount, then the
// prepayments and the result, and the note the building's country
// requires.
func (s *Service) PDF(ctx context.Context, b *buildings.Building, st *Statement, comp *Computation, rawContract, locale string) ([]byte, string, error) {
	id, err := uuid.Parse(rawContract)
	var line *ContractLine
	if err == nil {
		for i := range comp.Contracts {
			if comp.Contracts[i].ContractID == id {
				line = &comp.Contracts[i]
			}
		}
	}
	if line == nil {
		return nil, "", fault.NotFound("The contract is not part of this statement.")
	}
	loc := locale
	if loc == "" {
		loc = line.Locale
	}
	if !knownLocale(loc) {
		loc = "en"
	}
	c, err := s.p.Contracts.ByID(ctx, s.p.DB, line.ContractID)
	if err != nil {
		return nil, "", err
	}
	tenant := ""
	if s.p.Tenants != nil {
		if t, err := s.p.Tenants.ByID(ctx, s.p.DB, c.TenantID); err == nil {
			tenant = t.Name
		}
	}
	landlord := ""
	if u, err := s.p.Accounts.User(ctx, st.OwnerID); err == nil {
		landlord = u.Name
	}
	w := func(k string, vars ...string) string { return s.say(loc, k, vars...) }
	sty := printforms.StyleOf(loc)
	m := func(a money.Amount) string { return sty.Money(a, st.Currency) }
	sh := s.p.Renderer.Sheet(loc, w("title"), w("period")+" "+sty.Date(st.From)+" – "+sty.Date(st.To), st.CreatedAt)
	sh.Row(w("landlord"), landlord)
	sh.Row(w("tenant"), tenant)
	sh.Row(w("contract"), line.ContractNumber)
	name := b.Name
	if strings.EqualFold(strings.TrimSpace(b.Name), strings.TrimSpace(b.Address)) {
		name = ""
	}
	sh.Row(w("building"), printforms.AddressLine(name, b.Address, strings.TrimSpace(b.PostalCode+" "+b.City)))
	sh.Row(w("unit"), line.Unit)
	sh.Row(w("occupancy"), w("occupancy_value", "from", sty.Date(line.From), "to", sty.Date(line.To),
		"days", strconv.Itoa(line.Days), "period_days", strconv.Itoa(comp.PeriodDays)))
	// The CO2 cost follows the heating and, billed apart, the hot water.
	hotWater := slices.ContainsFunc(line.Costs, func(cl CostLine) bool { return cl.Category == CategoryHotWater })
	costLine := func(cl CostLine) {
		label := w("category." + cl.Category)
		if cl.Part == PartBase || cl.Part == PartConsumption {
			label += " – " + w("part."+cl.Part, "percent", strconv.Itoa(cl.Percent))
		}
		amount := m(cl.Amount)
		if cl.Amount < 0 {
			amount = "− " + m(-cl.Amount)
		}
		sh.Row(label, amount)
		vars := []string{"total", m(cl.Total), "unit", value(sty, cl.Key, cl.UnitValue), "all", value(sty, cl.Key, cl.TotalValue),
			"days", strconv.Itoa(cl.Days), "period_days", strconv.Itoa(cl.PeriodDays), "amount", m(cl.Amount), "percent", strconv.Itoa(cl.Percent)}
		arithmetic, key := "line", cl.Key
		switch cl.Key {
		case KeyPersons:
			arithmetic = "line_persons"
		case KeyDirect:
			arithmetic = "line_direct"
		case KeyConsumption:
			arithmetic = "line_consumption"
			if cl.Measure != nil {
				vars[3], vars[5] = sty.Decimal(cl.UnitValue)+" "+*cl.Measure, sty.Decimal(cl.TotalValue)+" "+*cl.Measure
			}
		case KeyCO2:
			arithmetic = "line_co2"
			vars[3], vars[5] = m(mustAmount(cl.UnitValue)), m(mustAmount(cl.TotalValue))
			vars[11] = m(-cl.Amount)
			if hotWater {
				key = "co2_hot_water"
			}
		}
		if cl.Part == PartBase {
			key = "heating_base"
			if cl.Category == CategoryHotWater {
				key = "hot_water_base"
			}
		}
		sh.Para(w("key."+key) + sty.Colon() + " " + w(arithmetic, vars...))
	}
	if strings.EqualFold(b.Country, "FR") {
		// Loi n° 89-462, art. 23: the charges by their nature (the
		// headings of the décret n° 87-713), each with its key.
		sh.Para(w("by_nature"))
		for _, n := range natures {
			var sub money.Amount
			var in []CostLine
			for _, cl := range line.Costs {
				if natureOf(cl.Category) == n {
					sub += cl.Amount
					in = append(in, cl)
				}
			}
			if len(in) == 0 {
				continue
			}
			sh.Section(w("nature." + n))
			for _, cl := range in {
				costLine(cl)
			}
			sh.Row(w("subtotal"), m(sub))
		}
	} else {
		sh.Section(w("costs"))
		for _, cl := range line.Costs {
			costLine(cl)
		}
	}
	// § 9a HeizKV: every tenant reads which units were not read and how
	// their consumption was replaced, as it changes everyone's share.
	for _, e := range comp.Estimates {
		if e.Method == EstimateAreaOnly {
			sh.Para(w("estimate_area_only", "category", w("category."+e.Category), "unit", e.Unit, "percent", sty.Decimal(e.AreaPercent)))
			continue
		}
		sh.Para(w("estimate_average", "category", w("category."+e.Category), "unit", e.Unit,
			"consumption", sty.Decimal(*e.Consumption)+" "+*e.Measure))
	}
	if slices.ContainsFunc(line.Costs, func(cl CostLine) bool { return cl.NonResidential }) {
		sh.Para(w("co2_non_residential"))
	}
	if comp.CO2 != nil {
		c := comp.CO2
		sh.Para(w("co2_note", "cost", m(c.Cost), "kg", sty.Decimal(c.EmissionsKg), "area", sty.Decimal(c.LivingArea),
			"per", sty.Decimal(c.KgPerM2), "tier", strconv.Itoa(c.Tier), "landlord", strconv.Itoa(c.LandlordPercent),
			"tenant", strconv.Itoa(c.TenantPercent)))
	}
	sh.Section(w("summary"))
	sh.Row(w("cost_total"), m(line.CostTotal))
	sh.Row(w("prepaid"), "− "+m(line.Prepaid))
	if line.Result >= 0 {
		sh.Row(w("balance_due"), m(line.Result))
	} else {
		sh.Row(w("credit"), m(-line.Result))
	}
	if line.Excluded {
		sh.Para(w("excluded", "amount", m(line.Difference())))
	}
	if st.CorrectsID != nil {
		// A corrected statement: what the first one settled, and the
		// difference that alone is now due or credited.
		if line.PreviouslyBooked >= 0 {
			sh.Row(w("previously_due"), m(line.PreviouslyBooked))
		} else {
			sh.Row(w("previously_credited"), m(-line.PreviouslyBooked))
		}
		if d := line.Difference(); d >= 0 {
			sh.Row(w("difference_due"), m(d))
		} else {
			sh.Row(w("difference_credit"), m(-d))
		}
	}
	switch strings.ToUpper(b.Country) {
	case "DE":
		sh.Para(w("note.de_objections"))
	case "FR":
		sh.Para(w("note.fr_receipts"))
	}
	pdf, err := sh.Finish(w("title") + " " + line.ContractNumber)
	if err != nil {
		return nil, "", err
	}
	return pdf, "opcosts-" + st.From.String() + "-" + safeName(line.ContractNumber) + ".pdf", nil
}

// The natures of charges of the décret n° 87-713 the French letter groups
// the costs by, in its order, and "other" for what it does not list.
var natures = []string{"elevators", "water_heating", "common_parts", "outdoor", "hygiene", "taxes", "other"}

func natureOf(category string) string {
	switch category {
	case "elevator":
		return "elevators"
	case "heating", "hot_water", "water":
		return "water_heating"
	case "cleaning", "lighting", "caretaker":
		return "common_parts"
	case "garden":
		return "outdoor"
	case "waste":
		return "hygiene"
	case "property_tax":
		return "taxes"
	}
	return "other"
}

// mustAmount reads an amount the computation wrote; 0 when unreadable.
func mustAmount(v string) money.Amount {
	a, err := money.Parse([]byte(v))
	if err != nil {
		return 0
	}
	return a
}

// value writes a key's value in the locale: areas and shares as decimals
// with the locale's separators, person-days and counts as they are.
func value(sty printforms.Style, key, v string) string {
	switch key {
	case KeyArea:
		return sty.Decimal(v) + " m²"
	case KeyShare:
		return sty.Decimal(v)
	}
	return v
}

func knownLocale(l string) bool {
	switch l {
	case "en", "de", "fr", "es", "uk":
		return true
	}
	return false
}

// safeName keeps letters, digits, '-' and '_' of a contract number, so a
// filename in a header never carries a quote.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
}
