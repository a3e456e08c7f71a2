package taxyear

import (
	"github.com/propman/propman/modules/bills"
	"github.com/propman/propman/platform/period"
)

// The forms a tax year is reported on.
const (
	AnlageV   = "anlage-v"   // Germany, Anlage V zur Einkommensteuererklärung
	Form2044  = "2044"       // France, déclaration des revenus fonciers n° 2044
	SA105     = "sa105"      // United Kingdom, SA105 UK property pages
	ScheduleE = "schedule-e" // United States, Schedule E (Form 1040) Part I
)

// Forms lists the forms in the order the API documents them.
var Forms = []string{AnlageV, Form2044, SA105, ScheduleE}

// formOfCountry is the form of a property's country.
var formOfCountry = map[string]string{"DE": AnlageV, "FR": Form2044, "GB": SA105, "US": ScheduleE}

// The sources a line adds up: money received by the class of what it
// paid, the bills paid by category (bills.Categories), and the
// compensations the ledger's 6800 booked.
const (
	srcRent         = "rent"          // rent received (4100's charges) and money received beyond any charge
	srcOther        = "other_income"  // late fees, fines, one-off and metered charges received (4200's)
	srcPrepayments  = "prepayments"   // operating-cost prepayments received (3510's)
	srcDeposits     = "deposits"      // deposits received (3500's): never income
	srcCompensation = "compensations" // tenants' claims set off or paid (6800)
	// srcDepreciation is the year's depreciation of the property's
	// recorded basis (depreciation.go): computed outside the journal.
	srcDepreciation = "depreciation"
)

// recordedOnly are the sources a line is computed from only when the
// property has them recorded: without a depreciation basis the line
// stays manual, its amount null (the landlord enters it).
var recordedOnly = map[string]bool{srcDepreciation: true}

// The kinds of line.
const (
	kindIncome  = "income"  // adds to the income total
	kindExpense = "expense" // adds to the expense total
	kindManual  = "manual"  // propman does not keep it: the amount is null, the landlord enters it
	kindMemo    = "memo"    // shown for the reader, in no total
	kindTotal   = "total"   // a sum of the lines above
)

// The totals every form ends with.
const (
	totalIncome   = "income_total"
	totalExpenses = "expense_total"
	totalResult   = "result"
)

// lineDef is one line of a form: its number or box on the official form
// ("" where the form has none: a summary propman adds), the catalogue key
// of its label (taxyear.<form>.<key>), its kind, and the sources it adds.
type lineDef struct {
	Line    string
	Key     string
	Kind    string
	Sources []string
}

// formLines is the one table that maps the books to the forms: what each
// line of each form adds up. Line numbers are those of the forms for the
// 2024 and 2025 tax years; the README holds the same table.
var formLines = map[string][]lineDef{
	AnlageV: {
		{"9", "rent", kindIncome, []string{srcRent}},
		{"13", "allocations", kindIncome, []string{srcPrepayments}},
		{"20", "other_income", kindIncome, []string{srcOther}},
		{"", totalIncome, kindTotal, nil},
		{"33", "depreciation", kindExpense, []string{srcDepreciation}},
		{"37", "interest", kindExpense, []string{bills.LoanInterest}},
		{"40", "maintenance", kindExpense, []string{bills.Repairs}},
		{"46", "running_costs", kindExpense, []string{bills.PropertyTax, bills.Insurance, bills.Operating}},
		{"47", "management", kindExpense, []string{bills.Management}},
		{"48", "other_costs", kindExpense, []string{bills.Other, srcCompensation}},
		{"", totalExpenses, kindTotal, nil},
		{"", totalResult, kindTotal, nil},
		{"", "deposits", kindMemo, []string{srcDeposits}},
	},
	Form2044: {
		{"211", "rent", kindIncome, []string{srcRent, srcOther}},
		{"215", totalIncome, kindTotal, nil},
		{"221", "administration", kindExpense, []string{bills.Management}},
		{"222", "management_other", kindExpense, []string{bills.Other, srcCompensation}},
		{"223", "insurance", kindExpense, []string{bills.Insurance}},
		{"224", "works", kindExpense, []string{bills.Repairs}},
		{"227", "property_tax", kindExpense, []string{bills.PropertyTax}},
		{"229", "provisions", kindExpense, []string{bills.Operating}},
		{"230", "regularisation", kindManual, nil},
		{"240", totalExpenses, kindTotal, nil},
		// After 240: the loan interest is not in the total of the
		// costs, the result 261 (215 - 240 - 250) takes it off.
		{"250", "interest", kindExpense, []string{bills.LoanInterest}},
		{"261", totalResult, kindTotal, nil},
		{"", "tenant_provisions", kindMemo, []string{srcPrepayments}},
		{"", "deposits", kindMemo, []string{srcDeposits}},
	},
	SA105: {
		{"20", "income", kindIncome, []string{srcRent, srcOther, srcPrepayments}},
		{"24", "rent_rates_insurance", kindExpense, []string{bills.PropertyTax, bills.Insurance}},
		{"25", "repairs", kindExpense, []string{bills.Repairs}},
		{"26", "finance_costs", kindManual, nil},
		{"27", "professional_fees", kindExpense, []string{bills.Management}},
		{"28", "services", kindExpense, []string{bills.Operating}},
		{"29", "other", kindExpense, []string{bills.Other, srcCompensation}},
		// Residential finance costs are no expense since 2020-21 (s. 272A
		// ITTOIA 2005): they give a basic-rate tax reduction, worked out
		// on the return. Shown, in no total.
		{"44", "residential_finance_costs", kindMemo, []string{bills.LoanInterest}},
		{"", totalIncome, kindTotal, nil},
		{"", totalExpenses, kindTotal, nil},
		{"", totalResult, kindTotal, nil},
		{"", "deposits", kindMemo, []string{srcDeposits}},
	},
	ScheduleE: {
		{"3", "rents", kindIncome, []string{srcRent, srcOther, srcPrepayments}},
		{"9", "insurance", kindExpense, []string{bills.Insurance}},
		{"11", "management", kindExpense, []string{bills.Management}},
		{"12", "mortgage_interest", kindExpense, []string{bills.LoanInterest}},
		{"14", "repairs", kindExpense, []string{bills.Repairs}},
		{"16", "taxes", kindExpense, []string{bills.PropertyTax}},
		{"17", "utilities", kindExpense, []string{bills.Operating}},
		{"18", "depreciation", kindExpense, []string{srcDepreciation}},
		{"19", "other", kindExpense, []string{bills.Other, srcCompensation}},
		{"20", totalExpenses, kindTotal, nil},
		{"21", totalResult, kindTotal, nil},
		{"", "deposits", kindMemo, []string{srcDeposits}},
	},
}

// periodOf is the tax year a form means by year: the calendar year, but
// for the UK's 6 April of year to 5 April of the next (SA105 for 2025
// covers the tax year 2025-26).
func periodOf(form string, year int) (from, to period.Date) {
	if form == SA105 {
		return period.NewDate(year, 4, 6), period.NewDate(year+1, 4, 5)
	}
	return period.NewDate(year, 1, 1), period.NewDate(year, 12, 31)
}
