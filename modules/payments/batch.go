package payments

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/money"
)

// BatchListener is a Listener that takes the payments of one PostManyTx
// at once (a receipt number range in one statement rather than one a
// payment). A Listener that is not one is called for each payment.
type BatchListener interface {
	PaymentsPosted(ctx context.Context, tx bun.IDB, list []PostedPayment) error
}

// PostManyTx posts many payments inside tx, the caller's transaction,
// which holds the lock of every property in props (properties.LockMany):
// what a bank statement's sure matches are. Each input names a contract of
// its property (in.ContractID, props keyed by the property's id through
// propertyOf) and is allocated as PostTx allocates it (oldest open charges
// first in the contract's allocation order, the rest the contract's
// credit); explicit allocations are not taken here. The inputs are
// applied in their order, so a later payment of one contract sees what
// the earlier ones paid. The invariants are Post's: every paid amount is
// the sum of its allocations, the journal has an entry per payment, the
// listeners (the receipt) see each payment. The work is a few statements
// for the whole batch, not a few a payment.
func (s *Service) PostManyTx(ctx context.Context, tx bun.Tx, props map[uuid.UUID]*properties.Property, propertyOf []uuid.UUID,
	by int64, ins []Input) ([]*Payment, error) {
	if len(ins) == 0 {
		return nil, nil
	}
	if len(propertyOf) != len(ins) {
		return nil, fmt.Errorf("post payments: %d inputs, %d properties", len(ins), len(propertyOf))
	}
	var contractIDs []uuid.UUID
	seen := map[uuid.UUID]bool{}
	for i, in := range ins {
		if in.ContractID == nil || in.Explicit || props[propertyOf[i]] == nil {
			return nil, fmt.Errorf("post payments: input %d needs a contract, its locked property and no explicit allocations", i)
		}
		if !seen[*in.ContractID] {
			seen[*in.ContractID] = true
			contractIDs = append(contractIDs, *in.ContractID)
		}
	}
	open, err := expenses.OpenChargesOf(ctx, tx, contractIDs)
	if err != nil {
		return nil, err
	}
	orders, err := contracts.AllocationOrdersOf(ctx, tx, contractIDs)
	if err != nil {
		return nil, err
	}
	for id := range orders {
		// Rare: only these contracts pay another order than oldest first.
		if open[id], err = inContractOrder(ctx, tx, id, open[id]); err != nil {
			return nil, err
		}
	}
	var payerIDs []uuid.UUID
	for _, in := range ins {
		if in.PayerID != nil {
			payerIDs = append(payerIDs, *in.PayerID)
		}
	}
	names := map[uuid.UUID]string{}
	if s.payers != nil && len(payerIDs) > 0 {
		if names, err = s.payers.Names(ctx, tx, payerIDs); err != nil {
			return nil, err
		}
	}
	now := s.now()
	out := make([]*Payment, len(ins))
	rows := make([]Payment, len(ins))
	var (
		allCharges []*expenses.Charge
		allAmounts []money.Amount
		owner      []int
		entries    = make([]journal.Entry, 0, len(ins))
		chunks     = make([][2]int, len(ins))
	)
	for i, in := range ins {
		prop := props[propertyOf[i]]
		id, err := uuid.NewV7()
		if err != nil {
			return nil, fmt.Errorf("payment id: %w", err)
		}
		rows[i] = Payment{
			ID: id, PropertyID: prop.ID, OwnerID: prop.OwnerID, ContractID: in.ContractID, PayerID: in.PayerID,
			Amount: in.Amount, Currency: prop.Currency, PaidOn: in.PaidOn, Method: in.Method, Reference: in.Reference,
			Status: Posted, CreatedBy: by, CreatedAt: now, UpdatedAt: now,
		}
		p := &rows[i]
		out[i] = p
		// Oldest first over what the contract still owes after the
		// batch's earlier payments (their share is taken off in memory).
		list := open[*in.ContractID]
		left := in.Amount
		var charges []*expenses.Charge
		var amounts []money.Amount
		for j := range list {
			if left == 0 {
				break
			}
			give := min(left, list[j].Outstanding())
			if give <= 0 {
				continue
			}
			charge := list[j]
			charges, amounts = append(charges, &charge), append(amounts, give)
			list[j].PaidAmount += give
			left -= give
		}
		p.Unallocated = left
		chunks[i] = [2]int{len(allCharges), len(allCharges) + len(charges)}
		allCharges = append(allCharges, charges...)
		allAmounts = append(allAmounts, amounts...)
		for range charges {
			owner = append(owner, i)
		}
		entries = append(entries, paymentEntry(prop, p, in, charges, amounts))
	}
	if err := s.store.InsertMany(ctx, tx, rows); err != nil {
		return nil, err
	}
	lines, err := s.allocate(ctx, tx, out, allCharges, allAmounts, func(k int) *Payment { return out[owner[k]] })
	if err != nil {
		return nil, err
	}
	if err := s.journal.Post(ctx, tx, entries...); err != nil {
		return nil, err
	}
	posted := make([]PostedPayment, len(ins))
	acts := make([]activity.Entry, len(ins))
	for i, p := range out {
		prop := props[propertyOf[i]]
		name := ""
		if p.PayerID != nil {
			name = names[*p.PayerID]
		}
		ls := lines[chunks[i][0]:chunks[i][1]]
		if len(ls) == 0 {
			ls = []Line{}
		}
		posted[i] = PostedPayment{Payment: p, WorkspaceID: prop.WorkspaceID, PayerName: name, Lines: ls}
		acts[i] = activity.Entry{Action: activity.Created, RecordType: "payment", RecordID: p.ID.String(), WorkspaceID: prop.WorkspaceID,
			Changes: activity.Diff(nil, paymentOut(p))}
	}
	for _, l := range s.listeners {
		if bl, ok := l.(BatchListener); ok {
			if err := bl.PaymentsPosted(ctx, tx, posted); err != nil {
				return nil, err
			}
			continue
		}
		for _, ev := range posted {
			if err := l.PaymentPosted(ctx, tx, ev); err != nil {
				return nil, err
			}
		}
	}
	if err := activity.RecordAll(ctx, tx, acts); err != nil {
		return nil, err
	}
	return out, nil
}
