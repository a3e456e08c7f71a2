package payments

import (
	"github.com/google/uuid"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/money"
)

// ContraOf is the account a payment's money comes into: the set-off's
// claim when the poster names one, cash for cash, the bank otherwise. A
// set-off that names none is a compensation to the tenant.
func ContraOf(method string, named journal.Account) journal.Account {
	switch {
	case named != "":
		return named
	case method == "cash":
		return journal.Cash
	case method == SetOff:
		return journal.CompensationExpense
	}
	return journal.Bank
}

// paymentEntry is the entry of a posted payment: the money (or the claim
// set off) debited, each charge's receivable credited with what went to
// it, the rest credited to the tenant's credit (a liability until a charge
// uses it).
func paymentEntry(prop *properties.Property, p *Payment, in Input, charges []*expenses.Charge, amounts []money.Amount) journal.Entry {
	kind := journal.KindPayment
	if p.Method == SetOff {
		kind = journal.KindSetOff
	}
	propID := prop.ID
	lines := make([]journal.Line, 0, len(charges)+2)
	contra := journal.Line{Account: ContraOf(p.Method, in.Contra), ContractID: p.ContractID, PropertyID: &propID, Debit: p.Amount}
	if contra.Account == journal.Bank {
		contra.BankAccountID = in.BankAccountID
	}
	lines = append(lines, contra)
	// One line per contract (the receivable's dimension), not per charge.
	byContract := map[uuid.UUID]int{}
	noContract := -1
	for i, c := range charges {
		if amounts[i] == 0 {
			continue
		}
		j, ok := -1, false
		if c.ContractID != nil {
			j, ok = byContract[*c.ContractID]
		} else if noContract >= 0 {
			j, ok = noContract, true
		}
		if ok {
			lines[j].Credit += amounts[i]
			continue
		}
		lines = append(lines, journal.Line{Account: journal.Receivable, ContractID: c.ContractID, PropertyID: &propID, Credit: amounts[i]})
		if c.ContractID != nil {
			byContract[*c.ContractID] = len(lines) - 1
		} else {
			noContract = len(lines) - 1
		}
	}
	if p.Unallocated > 0 {
		lines = append(lines, journal.Line{Account: journal.TenantCredit, ContractID: p.ContractID, PropertyID: &propID, Credit: p.Unallocated})
	}
	return journal.Entry{
		WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, Date: p.PaidOn, Kind: kind, SourceTable: "payments", SourceID: p.ID,
		Memo: p.Reference, Currency: p.Currency, Lines: lines,
	}
}

// creditEntries are the entries of credit used on new charges: for each
// payment that gave some, its tenant credit debited and the charges'
// receivables credited, dated the later of the payment and the charge.
// They carry the payment as source, so a reversal of the payment undoes
// them with it.
func creditEntries(propertyID uuid.UUID, charges []*expenses.Charge, amounts []money.Amount, from []*Payment) []journal.Entry {
	var out []journal.Entry
	at := map[uuid.UUID]int{}
	propID := propertyID
	for i, c := range charges {
		p := from[i]
		j, ok := at[p.ID]
		if !ok {
			out = append(out, journal.Entry{PropertyID: propertyID, Date: p.PaidOn, Kind: journal.KindCreditApplied,
				SourceTable: "payments", SourceID: p.ID, Memo: p.Reference, Currency: p.Currency,
				Lines: []journal.Line{{Account: journal.TenantCredit, ContractID: p.ContractID, PropertyID: &propID}}})
			j = len(out) - 1
			at[p.ID] = j
		}
		e := &out[j]
		if c.DueDate.After(e.Date) {
			e.Date = c.DueDate
		}
		e.Lines[0].Debit += amounts[i]
		e.Lines = append(e.Lines, journal.Line{Account: journal.Receivable, ContractID: c.ContractID, PropertyID: &propID, Credit: amounts[i]})
	}
	return out
}
