package payments

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/money"
)

// BalanceAfter is what was still owed at the end of p's paid_on day: on
// p's contract when p names one, else on p's property. It is the balance
// of that day as the ledger knows it now, whatever was keyed in later:
//
//   - the charges due on or before paid_on, at their amounts, less those
//     cancelled (a cancelled charge was never owed);
//   - less the payments paid on or before paid_on and not reversed (p
//     itself even when reversed since: its receipt is then void): a
//     payment naming the contract counts whole, its credit included; a
//     payment of the property that names no contract counts with what it
//     gave the contract's charges.
//
// So a charge billed in advance for a later month, or keyed in after the
// payment for a later due date, is not in it, and a receipt of a payment
// of 5 September states what was owed that evening. Never below zero:
// what was paid ahead is the receipt's credit, not a debt.
func (s *Service) BalanceAfter(ctx context.Context, p *Payment) (money.Amount, error) {
	return s.store.BalanceAfter(ctx, s.db, p)
}

// SettlesMonth reports whether p paid the rent and charges of one month
// of its contract and left that month fully paid right after it: a French
// landlord owes a quittance de loyer for such a payment, and a mere reçu
// for any other (a part payment, the deposit, a payment spread over
// months; loi n° 89-462, art. 21). "The month's rent and charges" are the
// contract's charges of that period made by its expenses (rent,
// prepayments, other recurring charges); the deposit, late fees, fines
// and a payment without a contract never make a quittance.
func (s *Service) SettlesMonth(ctx context.Context, p *Payment) (bool, error) {
	if p.ContractID == nil {
		return false, nil
	}
	m, err := s.store.MonthsOf(ctx, s.db, p)
	if err != nil {
		return false, err
	}
	if m.Months != 1 || m.Recurring != 1 || m.Other != 0 {
		return false, nil
	}
	// Right after p: the month's recurring charges less what payments up
	// to p had given them.
	left, err := s.store.LeftOfMonth(ctx, s.db, p, m.Month)
	if err != nil {
		return false, err
	}
	return left <= 0, nil
}

// LinesOf is what the payment with id gave each charge (not voided), in
// the order the charges fell due: what a statement itemises.
func (s *Service) LinesOf(ctx context.Context, id uuid.UUID) ([]Line, error) {
	return s.store.LinesOf(ctx, s.db, id)
}

// Read is the payment with id, read through db (a caller's transaction or
// the pool): for a module that holds a payment's id from an event.
func (s *Service) Read(ctx context.Context, db bun.IDB, id uuid.UUID) (*Payment, error) {
	return s.store.Read(ctx, db, id)
}
