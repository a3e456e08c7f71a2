package ledger

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/journal"
)

// historyBatch is how many entries the history writes at a time.
const historyBatch = 500

// journalHistory journals, through tx, what was recorded before the
// ledger, so that its balances agree with the records right after the
// upgrade: each charge not cancelled as made; each posted payment with
// what its live allocations gave each contract and its credit left (what
// credit later paid is part of its entry); each deposit settlement's
// deductions and live refund; each compensation paid out.
func (s *Service) journalHistory(ctx context.Context, tx bun.IDB) error {
	var batch []journal.Entry
	flush := func(force bool) error {
		if len(batch) == 0 || (!force && len(batch) < historyBatch) {
			return nil
		}
		err := s.Post(ctx, tx, batch...)
		batch = batch[:0]
		return err
	}
	charges, err := historyCharges(ctx, tx)
	if err != nil {
		return err
	}
	for i := range charges {
		c := &charges[i]
		prop := c.PropertyID
		batch = append(batch, journal.Entry{PropertyID: c.PropertyID, Date: c.DueDate, Kind: journal.KindCharge,
			SourceTable: "charges", SourceID: c.ID, Memo: c.Name, Currency: c.Currency,
			Lines: []journal.Line{
				{Account: journal.Receivable, ContractID: c.ContractID, PropertyID: &prop, Debit: c.Amount},
				{Account: expenses.ChargeAccount(c), ContractID: c.ContractID, PropertyID: &prop, Credit: c.Amount},
			}})
		if err := flush(false); err != nil {
			return err
		}
	}
	if err := s.historyPayments(ctx, tx, &batch, flush); err != nil {
		return err
	}
	if err := s.historyCompensations(ctx, tx, &batch, flush); err != nil {
		return err
	}
	return flush(true)
}

func (s *Service) historyPayments(ctx context.Context, tx bun.IDB, batch *[]journal.Entry, flush func(bool) error) error {
	list, err := historyPayments(ctx, tx)
	if err != nil {
		return err
	}
	allocs, err := historyAllocations(ctx, tx)
	if err != nil {
		return err
	}
	byPayment := map[uuid.UUID][]allocated{}
	for _, a := range allocs {
		byPayment[a.PaymentID] = append(byPayment[a.PaymentID], a)
	}
	// A set-off settles a claim: the deposit applied at a settlement, a
	// deposit refund credited, or else a compensation.
	deposits, refunds := map[uuid.UUID]bool{}, map[uuid.UUID]bool{}
	if ok, err := tableExists(ctx, tx, "deposit_settlements"); err != nil {
		return err
	} else if ok {
		if deposits, err = idSet(ctx, tx, "SELECT applied_payment_id FROM deposit_settlements WHERE applied_payment_id IS NOT NULL"); err != nil {
			return err
		}
		if refunds, err = idSet(ctx, tx, "SELECT payment_id FROM compensations WHERE payment_id IS NOT NULL AND kind = 'deposit_refund'"); err != nil {
			return err
		}
	}
	for i := range list {
		p := &list[i]
		var contra journal.Account
		switch {
		case deposits[p.ID]:
			contra = journal.DepositsHeld
		case refunds[p.ID]:
			contra = journal.RefundsPayable
		}
		*batch = append(*batch, paymentHistoryEntry(p, contra, byPayment[p.ID]))
		if err := flush(false); err != nil {
			return err
		}
	}
	return nil
}

// paymentHistoryEntry is what payments' own entry books for p, with its
// allocations as they stand.
func paymentHistoryEntry(p *payments.Payment, contra journal.Account, allocs []allocated) journal.Entry {
	prop := p.PropertyID
	kind := journal.KindPayment
	if p.Method == payments.SetOff {
		kind = journal.KindSetOff
	}
	lines := []journal.Line{{Account: payments.ContraOf(p.Method, contra), ContractID: p.ContractID, PropertyID: &prop, Debit: p.Amount}}
	for _, a := range allocs {
		lines = append(lines, journal.Line{Account: journal.Receivable, ContractID: a.ContractID, PropertyID: &prop, Credit: a.Amount})
	}
	if p.Unallocated > 0 {
		lines = append(lines, journal.Line{Account: journal.TenantCredit, ContractID: p.ContractID, PropertyID: &prop, Credit: p.Unallocated})
	}
	return journal.Entry{PropertyID: p.PropertyID, Date: p.PaidOn, Kind: kind, SourceTable: "payments", SourceID: p.ID,
		Memo: p.Reference, Currency: p.Currency, Lines: lines}
}

func (s *Service) historyCompensations(ctx context.Context, tx bun.IDB, batch *[]journal.Entry, flush func(bool) error) error {
	for _, table := range []string{"deposit_settlements", "compensations"} {
		if ok, err := tableExists(ctx, tx, table); err != nil || !ok {
			return err
		}
	}
	settlements, err := historySettlements(ctx, tx)
	if err != nil {
		return err
	}
	for _, st := range settlements {
		prop, contract := st.PropertyID, st.ContractID
		if st.Deductions > 0 {
			*batch = append(*batch, journal.Entry{WorkspaceID: st.WorkspaceID, PropertyID: prop, Date: st.SettledOn,
				Kind: journal.KindDepositSettled, SourceTable: "deposit_settlements", SourceID: st.ID, Memo: "deposit deductions",
				Currency: st.Currency, Lines: []journal.Line{
					{Account: journal.DepositsHeld, ContractID: &contract, PropertyID: &prop, Debit: st.Deductions},
					{Account: journal.OtherIncome, ContractID: &contract, PropertyID: &prop, Credit: st.Deductions},
				}})
		}
		if st.Refund > 0 && st.CompensationID != nil && st.RefundLive {
			*batch = append(*batch, journal.Entry{WorkspaceID: st.WorkspaceID, PropertyID: prop, Date: st.SettledOn,
				Kind: journal.KindRefundDue, SourceTable: "compensations", SourceID: *st.CompensationID, Memo: "deposit refund due",
				Currency: st.Currency, Lines: []journal.Line{
					{Account: journal.DepositsHeld, ContractID: &contract, PropertyID: &prop, Debit: st.Refund},
					{Account: journal.RefundsPayable, ContractID: &contract, PropertyID: &prop, Credit: st.Refund},
				}})
		}
		if err := flush(false); err != nil {
			return err
		}
	}
	payouts, err := historyPayouts(ctx, tx)
	if err != nil {
		return err
	}
	for _, cp := range payouts {
		prop, contract := cp.PropertyID, cp.ContractID
		claim, kind, cash := journal.CompensationExpense, journal.KindCompensation, journal.Bank
		if cp.Kind == "deposit_refund" {
			claim, kind = journal.RefundsPayable, journal.KindRefundPaid
		}
		if cp.Method != nil && *cp.Method == "cash" {
			cash = journal.Cash
		}
		*batch = append(*batch, journal.Entry{WorkspaceID: cp.WorkspaceID, PropertyID: prop, Date: cp.PaidOn, Kind: kind,
			SourceTable: "compensation_payouts", SourceID: cp.ID, Memo: cp.Description, Currency: cp.Currency,
			Lines: []journal.Line{
				{Account: claim, ContractID: &contract, PropertyID: &prop, Debit: cp.Amount},
				{Account: cash, ContractID: &contract, PropertyID: &prop, Credit: cp.Amount},
			}})
		if err := flush(false); err != nil {
			return err
		}
	}
	return nil
}
