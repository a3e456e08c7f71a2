package ledger

import "github.com/propman/propman/platform/journal"

// chartAccount is one account of the standard chart every workspace gets.
type chartAccount struct {
	Code string
	Role string
	// Type is asset, liability, income or expense: which side its balance
	// normally has.
	Type string
}

// The account types.
const (
	Asset     = "asset"
	Liability = "liability"
	Income    = "income"
	Expense   = "expense"
)

// chart is the standard chart of accounts. The numbers follow the classes
// of the German SKR 04 in a simple form (1 assets, 3 liabilities, 4
// income, 6 expenses), which an accountant maps to any other chart by
// number; the role is what the money modules book to.
var chart = []chartAccount{
	{"1200", string(journal.Receivable), Asset},
	{"1600", string(journal.Cash), Asset},
	{"1800", string(journal.Bank), Asset},
	{"3500", string(journal.DepositsHeld), Liability},
	{"3510", string(journal.Prepayments), Liability},
	{"3520", string(journal.TenantCredit), Liability},
	{"3530", string(journal.RefundsPayable), Liability},
	// What bills still owe suppliers (SKR 04 class 3: liabilities).
	{"3600", string(journal.BillsPayable), Liability},
	{"4100", string(journal.RentIncome), Income},
	{"4200", string(journal.OtherIncome), Income},
	// Landlord costs by category: the bills module books here.
	{"6300", string(journal.CostRepairs), Expense},
	{"6310", string(journal.CostInsurance), Expense},
	{"6320", string(journal.CostPropertyTax), Expense},
	{"6330", string(journal.CostOperating), Expense},
	{"6340", string(journal.CostManagement), Expense},
	{"6390", string(journal.CostOther), Expense},
	// The interest of the landlord's loans (bills of category
	// loan_interest): only the interest, never the principal repaid.
	{"6350", string(journal.CostInterest), Expense},
	// A tenant's claim set off against what they owe (a compensation
	// credited): no money moves, the landlord bears the cost.
	{"6800", string(journal.CompensationExpense), Expense},
	// The interest a deposit earned for the tenant, added to the deposit
	// held at its settlement and paid out or set off with it.
	{"6810", string(journal.DepositInterest), Expense},
}

// codeOf maps a role to its account number.
var codeOf = func() map[journal.Account]string {
	m := make(map[journal.Account]string, len(chart))
	for _, a := range chart {
		m[journal.Account(a.Role)] = a.Code
	}
	return m
}()

// typeOf maps an account number to its type.
var typeOf = func() map[string]string {
	m := make(map[string]string, len(chart))
	for _, a := range chart {
		m[a.Code] = a.Type
	}
	return m
}()

// nameKey is the catalogue key of a role's account name.
func nameKey(role string) string { return "ledger.account." + role }
