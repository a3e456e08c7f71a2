package compensations

import (
	"github.com/google/uuid"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/period"
)

// claimAccount is the account a compensation is owed from: a deposit
// refund was moved to refunds payable when the deposit was settled, every
// other compensation is the landlord's expense.
func claimAccount(cp *Compensation) journal.Account {
	if cp.Kind == DepositRefund {
		return journal.RefundsPayable
	}
	return journal.CompensationExpense
}

// payoutEntry is a compensation paid to the tenant: its claim debited,
// the money (cash, else the bank) credited.
func payoutEntry(prop *properties.Property, cp *Compensation) journal.Entry {
	money := journal.Bank
	if cp.Method != nil && *cp.Method == "cash" {
		money = journal.Cash
	}
	kind := journal.KindCompensation
	if cp.Kind == DepositRefund {
		kind = journal.KindRefundPaid
	}
	propID, contractID := prop.ID, cp.ContractID
	return journal.Entry{
		WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, Date: cp.PaidOn, Kind: kind,
		SourceTable: "compensation_payouts", SourceID: cp.ID, Memo: cp.Description, Currency: prop.Currency,
		Lines: []journal.Line{
			{Account: claimAccount(cp), ContractID: &contractID, PropertyID: &propID, Debit: cp.Amount},
			{Account: money, ContractID: &contractID, PropertyID: &propID, Credit: cp.Amount},
		},
	}
}

// settlementEntries are what a deposit settlement books besides the
// deposit applied to what is owed (a set-off payment, booked with it):
// the interest the deposit earned, added to it; the agreed deductions,
// kept by the landlord as other income; and the
// refund, due to the tenant from then on (its source is the refund's
// compensation, so cancelling that returns it to the deposit held).
func settlementEntries(prop *properties.Property, st *Settlement) []journal.Entry {
	propID, contractID := prop.ID, st.ContractID
	var out []journal.Entry
	if st.Interest > 0 {
		// The interest joins the deposit held, so what the settlement
		// applies, deducts and refunds comes out of one account.
		out = append(out, journal.Entry{
			WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, Date: st.SettledOn, Kind: journal.KindDepositSettled,
			SourceTable: "deposit_settlements", SourceID: st.ID, Memo: "deposit interest", Currency: st.Currency,
			Lines: []journal.Line{
				{Account: journal.DepositInterest, ContractID: &contractID, PropertyID: &propID, Debit: st.Interest},
				{Account: journal.DepositsHeld, ContractID: &contractID, PropertyID: &propID, Credit: st.Interest},
			},
		})
	}
	if st.DeductionsTotal > 0 {
		out = append(out, journal.Entry{
			WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, Date: st.SettledOn, Kind: journal.KindDepositSettled,
			SourceTable: "deposit_settlements", SourceID: st.ID, Memo: "deposit deductions", Currency: st.Currency,
			Lines: []journal.Line{
				{Account: journal.DepositsHeld, ContractID: &contractID, PropertyID: &propID, Debit: st.DeductionsTotal},
				{Account: journal.OtherIncome, ContractID: &contractID, PropertyID: &propID, Credit: st.DeductionsTotal},
			},
		})
	}
	if st.Refund > 0 && st.CompensationID != nil {
		out = append(out, journal.Entry{
			WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, Date: st.SettledOn, Kind: journal.KindRefundDue,
			SourceTable: "compensations", SourceID: *st.CompensationID, Memo: "deposit refund due", Currency: st.Currency,
			Lines: []journal.Line{
				{Account: journal.DepositsHeld, ContractID: &contractID, PropertyID: &propID, Debit: st.Refund},
				{Account: journal.RefundsPayable, ContractID: &contractID, PropertyID: &propID, Credit: st.Refund},
			},
		})
	}
	return out
}

// reversal undoes what a source booked, today.
func reversal(prop *properties.Property, table string, id uuid.UUID, today period.Date) journal.Reversal {
	return journal.Reversal{WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, Date: today, Kind: journal.KindReversal,
		SourceTable: table, SourceID: id, Memo: table + " reversed"}
}
