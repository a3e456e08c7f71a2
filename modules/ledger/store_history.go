package ledger

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The history migration's reads: what was recorded before the ledger
// existed, as it stands now (a cancelled charge or a reversed payment left
// nothing, so it is not journaled).

// tableExists reports whether the table exists (a module switched off
// never made its tables).
func tableExists(ctx context.Context, db bun.IDB, table string) (bool, error) {
	var n int
	var q *bun.RawQuery
	if database.IsPostgres(db) {
		q = db.NewRaw("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?", table)
	} else {
		q = db.NewRaw("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", table)
	}
	if err := database.Query(ctx, db, q, &n); err != nil {
		return false, fmt.Errorf("table %s: %w", table, err)
	}
	return n > 0, nil
}

// historyCharges are the charges not cancelled.
func historyCharges(ctx context.Context, db bun.IDB) ([]expenses.Charge, error) {
	var out []expenses.Charge
	q := db.NewSelect().Model(&out).Where("status <> ?", expenses.Cancelled).Where("amount_minor > 0").Order("due_date", "id")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("history charges: %w", err)
	}
	return out, nil
}

// historyPayments are the posted payments.
func historyPayments(ctx context.Context, db bun.IDB) ([]payments.Payment, error) {
	var out []payments.Payment
	q := db.NewSelect().Model(&out).Where("status = ?", payments.Posted).Order("paid_on", "id")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("history payments: %w", err)
	}
	return out, nil
}

// allocated is what a payment's live allocations gave one contract's
// charges.
type allocated struct {
	PaymentID  uuid.UUID    `bun:"payment_id"`
	ContractID *uuid.UUID   `bun:"contract_id"`
	Amount     money.Amount `bun:"amount"`
}

// historyAllocations are the live allocations of posted payments, summed
// per payment and contract of the charge.
func historyAllocations(ctx context.Context, db bun.IDB) ([]allocated, error) {
	var out []allocated
	q := db.NewRaw(`SELECT a.payment_id, ch.contract_id, CAST(SUM(a.amount_minor) AS BIGINT) AS amount
		FROM payment_allocations a JOIN charges ch ON ch.id = a.charge_id JOIN payments p ON p.id = a.payment_id
		WHERE a.voided_at IS NULL AND p.status = ? GROUP BY a.payment_id, ch.contract_id ORDER BY a.payment_id`, payments.Posted)
	if err := database.Query(ctx, db, q, &out); err != nil {
		return nil, fmt.Errorf("history allocations: %w", err)
	}
	return out, nil
}

// idSet reads one column of ids.
func idSet(ctx context.Context, db bun.IDB, query string, args ...any) (map[uuid.UUID]bool, error) {
	var ids []uuid.UUID
	if err := database.Query(ctx, db, db.NewRaw(query, args...), &ids); err != nil {
		return nil, fmt.Errorf("history ids: %w", err)
	}
	out := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// settled is a deposit settlement as the history books it.
type settled struct {
	ID             uuid.UUID    `bun:"id"`
	WorkspaceID    int64        `bun:"workspace_id"`
	PropertyID     uuid.UUID    `bun:"property_id"`
	ContractID     uuid.UUID    `bun:"contract_id"`
	Currency       string       `bun:"currency"`
	SettledOn      period.Date  `bun:"settled_on"`
	Deductions     money.Amount `bun:"deductions_minor"`
	Refund         money.Amount `bun:"refund_minor"`
	CompensationID *uuid.UUID   `bun:"compensation_id"`
	// RefundLive: the refund's compensation was not cancelled.
	RefundLive bool `bun:"refund_live"`
}

func historySettlements(ctx context.Context, db bun.IDB) ([]settled, error) {
	var out []settled
	q := db.NewRaw(`SELECT s.id, s.workspace_id, s.property_id, s.contract_id, s.currency, s.settled_on, s.deductions_minor,
			s.refund_minor, s.compensation_id,
			CASE WHEN c.id IS NOT NULL AND c.status <> 'cancelled' THEN 1 ELSE 0 END AS refund_live
		FROM deposit_settlements s LEFT JOIN compensations c ON c.id = s.compensation_id ORDER BY s.id`)
	if err := database.Query(ctx, db, q, &out); err != nil {
		return nil, fmt.Errorf("history settlements: %w", err)
	}
	return out, nil
}

// paidOut is a compensation paid to the tenant.
type paidOut struct {
	ID          uuid.UUID    `bun:"id"`
	WorkspaceID int64        `bun:"workspace_id"`
	PropertyID  uuid.UUID    `bun:"property_id"`
	ContractID  uuid.UUID    `bun:"contract_id"`
	Kind        string       `bun:"kind"`
	Amount      money.Amount `bun:"amount_minor"`
	Currency    string       `bun:"currency"`
	Method      *string      `bun:"method"`
	PaidOn      period.Date  `bun:"paid_on"`
	Description string       `bun:"description"`
}

func historyPayouts(ctx context.Context, db bun.IDB) ([]paidOut, error) {
	var out []paidOut
	q := db.NewRaw(`SELECT c.id, c.workspace_id, c.property_id, c.contract_id, c.kind, c.amount_minor, c.currency, c.method,
			c.paid_on, c.description
		FROM compensations c WHERE c.status = 'paid_out' ORDER BY c.id`)
	if err := database.Query(ctx, db, q, &out); err != nil {
		return nil, fmt.Errorf("history payouts: %w", err)
	}
	return out, nil
}
