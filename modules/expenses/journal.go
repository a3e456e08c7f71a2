package expenses

import (
	"context"
	"strings"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/journal"
)

// DepositChargeName is the name the contracts module gives a contract's
// deposit charge (a one-off charge of the contract, no expense).
const DepositChargeName = "Deposit"

// PrepaymentPrefix starts the name of a contract's operating-cost
// prepayment expense (contracts module) and so of its charges: the
// reports tell prepayments from income by it.
const PrepaymentPrefix = "Utility prepayment"

// ChargeAccount is the account a charge is credited to when it is made
// (the receivable is debited): the deposit is a liability held for the
// tenant, a prepayment of operating costs a liability until the costs are
// settled, late fees, interest, fines and one-off charges other income,
// and every other recurring charge (the rent) rent income.
func ChargeAccount(c *Charge) journal.Account {
	switch {
	case c.Kind == Penalty || c.Kind == Fine:
		return journal.OtherIncome
	case c.ExpenseID == nil && c.Kind == Regular && c.Name == DepositChargeName:
		return journal.DepositsHeld
	case strings.HasPrefix(c.Name, PrepaymentPrefix):
		return journal.Prepayments
	case c.ExpenseID != nil:
		return journal.RentIncome
	}
	return journal.OtherIncome
}

// bookCharges journals the making of charges in db, the transaction that
// inserted them: one entry per charge, dated its due date.
func (s *Service) bookCharges(ctx context.Context, db bun.IDB, charges []Charge) error {
	if !s.journal.On() || len(charges) == 0 {
		return nil
	}
	return s.journal.Post(ctx, db, chargeEntries(0, charges)...)
}

// chargeEntries are the journal's entries of new charges, one per charge
// on the charge's property; workspaceID, when known (not 0), saves the
// journal looking it up for each entry.
func chargeEntries(workspaceID int64, charges []Charge) []journal.Entry {
	entries := make([]journal.Entry, 0, len(charges))
	for i := range charges {
		c := &charges[i]
		if c.Status == Cancelled || c.Amount <= 0 {
			continue
		}
		prop := c.PropertyID
		entries = append(entries, journal.Entry{
			WorkspaceID: workspaceID, PropertyID: prop, Date: c.DueDate, Kind: journal.KindCharge, SourceTable: "charges", SourceID: c.ID,
			Memo: c.Name, Currency: c.Currency,
			Lines: []journal.Line{
				{Account: journal.Receivable, ContractID: c.ContractID, PropertyID: &prop, Debit: c.Amount},
				{Account: ChargeAccount(c), ContractID: c.ContractID, PropertyID: &prop, Credit: c.Amount},
			},
		})
	}
	return entries
}
