package bills

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The tax categories of a bill: each is booked to its own cost account.
const (
	Repairs     = "repairs"
	Insurance   = "insurance"
	PropertyTax = "property_tax"
	Operating   = "operating"
	Management  = "management"
	Other       = "other"
	// LoanInterest is the interest part of a loan's instalment: a loan
	// instalment is recorded as its interest only, the repayment of
	// principal is no cost and no bill.
	LoanInterest = "loan_interest"
)

// Categories lists the tax categories in the chart's order.
var Categories = []string{Repairs, Insurance, PropertyTax, Operating, Management, Other, LoanInterest}

// costAccount is the ledger account a bill of each category is debited to.
var costAccount = map[string]journal.Account{
	Repairs:      journal.CostRepairs,
	Insurance:    journal.CostInsurance,
	PropertyTax:  journal.CostPropertyTax,
	Operating:    journal.CostOperating,
	Management:   journal.CostManagement,
	Other:        journal.CostOther,
	LoanInterest: journal.CostInterest,
}

// OperatingCategories are the kinds of operating cost the yearly
// operating-cost statement (Betriebskostenabrechnung, a later slice)
// allocates; they follow the positions of § 2 BetrKV. hot_water is the
// hot-water supply billed apart from the heating (§ 2 Nr. 5 BetrKV, § 8
// HeizKV), when the supplier or the meter reading service states it apart.
var OperatingCategories = []string{
	"heating", "hot_water", "water", "waste", "cleaning", "garden", "insurance_building", "property_tax",
	"caretaker", "elevator", "lighting", "other_allocable",
}

// The payment states a list filters on.
const (
	Paid   = "paid"
	Unpaid = "unpaid"
)

// Bill is a row of bills: what the landlord owes or paid a supplier for a
// property. Amount is gross, VAT the part of it that is tax.
type Bill struct {
	bun.BaseModel `bun:"table:bills"`

	ID          uuid.UUID    `bun:"id,pk"`
	WorkspaceID int64        `bun:"workspace_id,notnull"`
	OwnerID     int64        `bun:"owner_id,notnull"`
	PropertyID  uuid.UUID    `bun:"property_id,notnull"`
	SupplierID  uuid.UUID    `bun:"supplier_id,notnull"`
	BillDate    period.Date  `bun:"bill_date,notnull"`
	DueDate     period.Date  `bun:"due_date,notnull"`
	PaidOn      period.Date  `bun:"paid_on,nullzero"`
	Amount      money.Amount `bun:"amount_minor,notnull"`
	Currency    string       `bun:"currency,notnull"`
	VAT         money.Amount `bun:"vat_minor,notnull"`
	// VATRate is in hundredths of a percent, nil when the VAT was given
	// as an amount.
	VATRate           *int64     `bun:"vat_rate_centi"`
	Category          string     `bun:"category,notnull"`
	OperatingCategory *string    `bun:"operating_category"`
	Allocable         bool       `bun:"allocable,notnull"`
	DocumentID        *uuid.UUID `bun:"document_id"`
	Note              string     `bun:"note,notnull"`
	CreatedAt         time.Time  `bun:"created_at,notnull"`
	UpdatedAt         time.Time  `bun:"updated_at,notnull"`
}

// IsPaid reports whether the bill has a paid date.
func (b *Bill) IsPaid() bool { return !b.PaidOn.IsZero() }
