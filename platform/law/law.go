// Package law is the table of residential tenancy rules propman applies,
// one row per country: a country is added here, in one place, and every
// rule names its source in the comment beside it (the law in force in
// 2026). Modules ask the table; none writes a legal rule of its own.
//
// The late-fee rule is still read from the agreement blocks a country
// ships (modules/penalties, law.go there): a country whose blocks offer
// statutory interest allows no fixed late fee.
package law

import (
	"strings"
	"time"
)

// Rules are one country's rules for a residential lease.
type Rules struct {
	// Country is the ISO 3166-1 alpha-2 code, upper case.
	Country string
	// Fines reports whether a residential lease may stipulate a
	// contractual penalty (a fine) for a breach of its terms. Where it may
	// not, damage is claimed as damage, with evidence, never as a fine.
	Fines bool
	// FinesSource is the provision that voids fines where Fines is false.
	FinesSource string
	// Index is what a rent indexation must state there.
	Index IndexRule
	// Term is the fixed term a residential lease runs there (zero: the
	// law fixes none and the contract's own dates stand).
	Term TermRule
	// DepositInterest says whether the deposit earns interest for the
	// tenant while the landlord holds it.
	DepositInterest DepositInterestRule
	// OperatingCosts is the deadline of the yearly operating-cost
	// statement.
	OperatingCosts OperatingCostsRule
}

// OperatingCostsRule is when a yearly operating-cost statement must reach
// the tenant for a balance due to be claimed.
type OperatingCostsRule struct {
	// DeadlineMonths: the statement is due by the end of this many months
	// after the end of the period; after it the landlord may claim no
	// balance, unless the delay was not their fault (a credit is owed to
	// the tenant anyway). 0: the law sets no such deadline.
	DeadlineMonths int
	// Source is the provision.
	Source string
}

// Deadline is the last day a statement of the period ending on periodEnd
// may reach the tenant with a claim, and whether the law sets one. A
// period ending on the last day of a month ends the deadline on the last
// day of the month DeadlineMonths later (a period ending 2024-02-29 has
// until 2025-02-28, not 2025-03-01).
func (r OperatingCostsRule) Deadline(periodEnd time.Time) (time.Time, bool) {
	if r.DeadlineMonths == 0 {
		return time.Time{}, false
	}
	y, m, d := periodEnd.Date()
	first := time.Date(y, m+time.Month(r.DeadlineMonths), 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	if d > last || periodEnd.AddDate(0, 0, 1).Day() == 1 {
		d = last
	}
	return time.Date(first.Year(), first.Month(), d, 0, 0, 0, 0, time.UTC), true
}

// TermRule is the term of a residential lease fixed by law, in years, by
// the kind of landlord.
type TermRule struct {
	// PersonYears and CompanyYears: the term when the landlord is a
	// natural person and when it is a company (a legal person).
	PersonYears, CompanyYears int
	// Source is the provision.
	Source string
}

// Years is the term for a landlord that is a company or not; 0 when the
// law fixes none.
func (t TermRule) Years(company bool) int {
	if company {
		return t.CompanyYears
	}
	return t.PersonYears
}

// DepositInterestRule is whether a deposit earns interest for the tenant.
type DepositInterestRule struct {
	// Owed: the interest the deposit earned is the tenant's and is paid
	// back with it, at the rate entered on the settlement or configured.
	Owed bool
	// Source is the provision.
	Source string
}

// IndexRule is what a rent change by an index must name: the index, its
// value at the last change (or the start) and now, and their periods.
type IndexRule struct {
	// Required: a rent change without the index values is refused.
	Required bool
	// Quarterly: the index is published by quarter (YYYY-Qn), else by
	// month (YYYY-MM).
	Quarterly bool
	// Name is the index the law names (when the landlord names none).
	Name string
	// Source is the provision.
	Source string
}

// table holds the countries whose law propman knows. A country not in it
// keeps the general rule of contract law: a penalty clause the parties
// agreed is valid (Rules.Fines true).
var table = map[string]Rules{
	// Germany. § 555 BGB: an agreement by which the landlord stipulates a
	// contractual penalty from the tenant is void.
	//
	// § 557b Abs. 3 BGB: an index rent changes by a declaration in text
	// form that states the change of the price index (the Verbraucher-
	// preisindex für Deutschland) and the new rent or the increase as an
	// amount; the new rent is owed from the second month after it.
	//
	// § 551 Abs. 3 BGB: the landlord invests the deposit with a credit
	// institution at the usual interest rate for savings deposits with a
	// three-month notice period; the income is the tenant's and increases
	// the security.
	//
	// § 556 Abs. 3 Satz 2 und 3 BGB: the landlord must send the yearly
	// statement of operating costs by the end of the twelfth month after
	// the end of the period; after that the landlord can claim no further
	// payment, unless the landlord is not responsible for the delay.
	// (A credit owed to the tenant is not excluded.)
	"DE": {Country: "DE", Fines: false, FinesSource: "§ 555 BGB",
		Index:           IndexRule{Required: true, Name: "Verbraucherpreisindex für Deutschland (VPI)", Source: "§ 557b BGB"},
		DepositInterest: DepositInterestRule{Owed: true, Source: "§ 551 Abs. 3 BGB"},
		OperatingCosts:  OperatingCostsRule{DeadlineMonths: 12, Source: "§ 556 Abs. 3 BGB"}},
	// France. Loi n° 89-462 du 6 juillet 1989, art. 4 i): any clause that
	// authorises the landlord to collect fines or penalties for a breach of
	// the lease or of the building's rules is deemed unwritten.
	//
	// Loi n° 89-462, art. 17-1: the rent is revised once a year by at
	// most the change of the Indice de référence des loyers (IRL) of the
	// quarter the lease names, published by INSEE.
	//
	// Loi n° 89-462, art. 10: the lease of a dwelling runs at least three
	// years when the landlord is a natural person (or a family société
	// civile immobilière), six years when it is a legal person.
	//
	// Loi n° 89-462, art. 22: the dépôt de garantie "ne porte pas
	// intérêt au bénéfice du locataire"; only a late return adds a
	// penalty of 10 % of the monthly rent per month begun.
	"FR": {Country: "FR", Fines: false, FinesSource: "loi n° 89-462 du 6 juillet 1989, art. 4 i)",
		Index:           IndexRule{Required: true, Quarterly: true, Name: "Indice de référence des loyers (IRL)", Source: "loi n° 89-462, art. 17-1"},
		Term:            TermRule{PersonYears: 3, CompanyYears: 6, Source: "loi n° 89-462, art. 10"},
		DepositInterest: DepositInterestRule{Owed: false, Source: "loi n° 89-462, art. 22"}},
	// United Kingdom (England). Tenant Fees Act 2019, s. 1 and Sch. 1: a
	// landlord may require no payment of an assured shorthold tenant but
	// the permitted ones (rent, capped deposits, a default fee for lost
	// keys or rent 14 days late, capped); a fine for a breach is not one.
	//
	// Housing Act 2004, ss. 212-215: the deposit is protected in an
	// authorised scheme; the statute gives the tenant no interest on it
	// (a custodial scheme's own interest is the scheme's affair).
	"GB": {Country: "GB", Fines: false, FinesSource: "Tenant Fees Act 2019, s. 1 and Sch. 1",
		DepositInterest: DepositInterestRule{Owed: false, Source: "Housing Act 2004, ss. 212-215"}},
	// Spain. Código Civil art. 1152: a penalty clause the parties agreed
	// stands in for damages; the LAU does not exclude it.
	"ES": {Country: "ES", Fines: true},
	// Ukraine. Civil Code art. 549-552: a penalty (неустойка) agreed in
	// writing is a valid security of the obligation.
	"UA": {Country: "UA", Fines: true},
}

// Of returns the rules of country (any case); a country the table does not
// hold gets the general rule.
func Of(country string) Rules {
	c := strings.ToUpper(strings.TrimSpace(country))
	if r, ok := table[c]; ok {
		return r
	}
	return Rules{Country: c, Fines: true}
}
