package printforms

import (
	"strings"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
)

// The names the service gives its own charges, in English as they are
// stored (contracts: the rent and prepayment expenses and the deposit
// charge; expenses: a late fee; counters: a meter's consumption).
var (
	rentPrefix       = contracts.RentName("")
	prepaymentPrefix = "Utility prepayment, contract "
	depositName      = "Deposit"
	lateFeePrefix    = expenses.PenaltyName("")
	interestPrefix   = expenses.InterestName("")
	// meterLabels are the counters module's names of the meter kinds.
	meterLabels = map[string]string{
		"Electricity": "electricity", "Gas": "gas", "Cold water": "water_cold",
		"Hot water": "water_hot", "Heating": "heating", "Meter": "other",
	}
)

// method is a payment method in the locale; an unknown one as it is.
func (d *doc) method(m string) string {
	for _, known := range methods {
		if m == known {
			return d.l.get(keyMethodPrefix + m)
		}
	}
	return clean(m, false)
}

// ChargeName is a charge's name as a reader of locale reads it: the names
// the service gives its own charges translated (as chargeName does on the
// forms), the landlord's as written. Letters and mails use it, so a
// German reminder says "Miete, Vertrag 2026/001", not "Rent, contract".
func (r *Renderer) ChargeName(locale, name string) string {
	l, _ := r.labels.forLocale(locale)
	d := &doc{l: l, locale: locale, st: styleOf(locale)}
	return d.chargeName(name)
}

// chargeName is a receipt line's charge in the locale when the service
// named it ("Rent, contract 2026/001" is "Miete, Vertrag 2026/001" in
// German; "Late fee: Deposit" is "Verzugszuschlag: Kaution"; a meter's
// "Electricity 2026-11 (12.5 kWh x 0.30)" is "Strom 11.2026 (12,5 kWh ×
// 0,30)"), and as written when the landlord named it.
func (d *doc) chargeName(name string) string {
	kind := func(k string) string { return d.l.get(keyChargePrefix + k) }
	ofContract := func(k, number string) string {
		return fill(d.l.get(keyChargeOf), d.locale, 0, map[string]string{"charge": kind(k), "number": number})
	}
	switch {
	case name == depositName:
		return kind("deposit")
	case strings.HasPrefix(name, rentPrefix) && len(name) > len(rentPrefix):
		return ofContract("rent", name[len(rentPrefix):])
	case strings.HasPrefix(name, prepaymentPrefix) && len(name) > len(prepaymentPrefix):
		return ofContract("utility_prepayment", name[len(prepaymentPrefix):])
	case strings.HasPrefix(name, lateFeePrefix) && len(name) > len(lateFeePrefix):
		return kind("late_fee") + ": " + d.chargeName(name[len(lateFeePrefix):])
	case strings.HasPrefix(name, interestPrefix) && len(name) > len(interestPrefix):
		return kind("default_interest") + ": " + d.chargeName(name[len(interestPrefix):])
	}
	if m := d.meterCharge(name); m != "" {
		return m
	}
	return name
}

// meterCharge is a counter's charge "<Kind> <period> (<used> <unit> x
// <tariff>)" in the locale, or "" when name is not one.
func (d *doc) meterCharge(name string) string {
	for label, kind := range meterLabels {
		rest, ok := strings.CutPrefix(name, label+" ")
		if !ok {
			continue
		}
		period, calc, ok := strings.Cut(rest, " (")
		if !ok || !strings.HasSuffix(calc, ")") {
			return ""
		}
		fields := strings.Fields(strings.TrimSuffix(calc, ")"))
		// used unit x tariff
		if len(fields) != 4 || fields[2] != "x" {
			return ""
		}
		return d.l.get(keyMeterPrefix+kind) + " " + d.st.Period(period) + " (" +
			d.st.Decimal(fields[0]) + " " + fields[1] + " × " + d.st.Decimal(fields[3]) + ")"
	}
	return ""
}
