package printforms

import (
	"strings"

	"github.com/propman/propman/platform/chargename"
)

// meterLabels are the counters module's names of the meter kinds.
var meterLabels = map[string]string{
	"Electricity": "electricity", "Gas": "gas", "Cold water": "water_cold",
	"Hot water": "water_hot", "Heating": "heating", "Meter": "other",
}

// method is a payment method in the locale; an unknown one as it is.
func (d *doc) method(m string) string {
	for _, known := range methods {
		if m == known {
			return d.l.get(keyMethodPrefix + m)
		}
	}
	return clean(m, false)
}

// ChargeName is a charge's name as a reader of locale reads it, from the
// name alone: the English wording the service stores for its own charges
// is read back into its kind (chargename.Parse) and rendered as
// NameCharge does; a meter's charge is translated too; the landlord's
// names stay as written. Letters and mails that only have the name use
// it, so a German reminder says "Miete, Vertrag 2026/001", not "Rent,
// contract".
func (r *Renderer) ChargeName(locale, name string) string {
	l, _ := r.labels.forLocale(locale)
	d := &doc{l: l, locale: locale, st: styleOf(locale)}
	return d.chargeName(name)
}

// NameCharge is the one wording of a generated name (its kind and args,
// see chargename) in locale; a custom name is returned as typed. The
// expenses module renders charges and expenses for the landlord API and
// the portal with it.
func (r *Renderer) NameCharge(locale string, n chargename.Name) string {
	if n.Kind == chargename.Custom || n.Kind == "" {
		return n.English()
	}
	l, _ := r.labels.forLocale(locale)
	d := &doc{l: l, locale: locale, st: styleOf(locale)}
	return d.generatedName(n)
}

// chargeName is a receipt line's charge in the locale when the service
// named it ("Rent, contract 2026/001" is "Miete, Vertrag 2026/001" in
// German; "Late fee: Deposit" is "Verzugszuschlag: Kaution"; a meter's
// "Electricity 2026-11 (12.5 kWh x 0.30)" is "Strom 11.2026 (12,5 kWh ×
// 0,30)"), and as written when the landlord named it.
func (d *doc) chargeName(name string) string {
	if n := chargename.Parse(name); n.Kind != chargename.Custom {
		return d.generatedName(n)
	}
	if m := d.meterCharge(name); m != "" {
		return m
	}
	return name
}

// generatedName renders n: the kind's word from the catalogue, with the
// contract number, or with the charge a late fee is for.
func (d *doc) generatedName(n chargename.Name) string {
	kind := func(k string) string { return d.l.get(keyChargePrefix + k) }
	number := ""
	if len(n.Args) > 0 {
		number = n.Args[0]
	}
	switch n.Kind {
	case chargename.Deposit:
		return kind("deposit")
	case chargename.Rent, chargename.Prepayment, chargename.Fine, chargename.Repair:
		// A fine names its contract, never the violated block's code.
		return fill(d.l.get(keyChargeOf), d.locale, 0, map[string]string{"charge": kind(n.Kind), "number": number})
	case chargename.LateFee, chargename.Interest:
		inner := chargename.Inner(n.Args)
		if inner.Kind == chargename.Custom {
			return kind(n.Kind) + ": " + d.chargeName(inner.English())
		}
		return kind(n.Kind) + ": " + d.generatedName(inner)
	}
	return n.English()
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
