package expenses

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// PenaltyInput is one late fee the penalties module decided on: Amount for
// the overdue charge For.
type PenaltyInput struct {
	For    *Charge
	Amount money.Amount
	// Interest marks statutory default interest (where a fixed late fee
	// is not allowed) rather than a late fee.
	Interest bool
}

// maxChargeName is the length of charges.name.
const maxChargeName = 200

// penaltyBatch is how many penalty charges one INSERT carries.
const penaltyBatch = 500

// CreatePenaltiesTx inserts, through tx (the caller's transaction, which
// holds the property's lock), one penalty charge per input: kind penalty,
// penalty_for the overdue charge, its period, contract and currency, due
// on today (UTC, the service's clock). A charge that already has its
// penalty is left alone (the unique index on penalty_for, ON CONFLICT DO
// NOTHING), so concurrent callers create each penalty once. The inserted
// charges are handed to the ledger, which uses the property's credit on
// them, and returned.
func (s *Service) CreatePenaltiesTx(ctx context.Context, tx bun.IDB, propertyID uuid.UUID, in []PenaltyInput) ([]Charge, error) {
	now := s.now()
	today := period.DateOf(now)
	rows := make([]Charge, 0, len(in))
	for _, p := range in {
		id, err := uuid.NewV7()
		if err != nil {
			return nil, fmt.Errorf("penalty id: %w", err)
		}
		forID := p.For.ID
		var name, kind, args string
		setName(&name, &kind, &args, chargename.For(p.Interest, p.For.GeneratedName()))
		// The prefix may take a long charge name past the column's 200
		// characters, which PostgreSQL refuses.
		if r := []rune(name); len(r) > maxChargeName {
			name = string(r[:maxChargeName-1]) + "…"
		}
		rows = append(rows, Charge{
			ID: id, PropertyID: propertyID, Origin: id, Name: name, NameKind: kind, NameArgs: args, Amount: p.Amount,
			Currency: p.For.Currency, Period: p.For.Period, DueDate: today, Status: Unpaid,
			ContractID: p.For.ContractID, Kind: Penalty, PenaltyFor: &forID, CreatedAt: now,
		})
	}
	var inserted []Charge
	for start := 0; start < len(rows); start += penaltyBatch {
		batch := rows[start:min(start+penaltyBatch, len(rows))]
		ids, err := s.store.insertPenalties(ctx, tx, batch)
		if err != nil {
			return nil, err
		}
		made := make(map[uuid.UUID]bool, len(ids))
		for _, id := range ids {
			made[id] = true
		}
		for _, c := range batch {
			if made[c.ID] {
				inserted = append(inserted, c)
			}
		}
	}
	if err := s.chargesCreated(ctx, tx, propertyID, inserted); err != nil {
		return nil, err
	}
	return inserted, nil
}

// Today is the service clock's date (UTC).
func (s *Service) Today() period.Date { return period.DateOf(s.now()) }

// ChargeJSON is the charge as clients see it (the Charge schema of the
// module's openapi.yaml), for other modules that answer with charges.
func ChargeJSON(c *Charge) any { return chargeOut(c) }

// FineInput is a contractual fine another module (violations) charges.
type FineInput struct {
	// Name is the generated name (kind fine), rendered when read.
	Name    chargename.Name
	Amount  money.Amount
	DueDate period.Date
}

// CreateFineTx inserts, through tx (the caller's transaction, which holds
// the property's lock), one charge of kind fine on the contract, in the
// property's currency, period the month of its due date, and hands it to
// the ledger, which uses the property's credit on it. A fine carries a
// late fee only when its contract's terms set LATE_FEE_ON_FINES
// (modules/penalties).
func (s *Service) CreateFineTx(ctx context.Context, tx bun.IDB, prop *properties.Property, contractID uuid.UUID, in FineInput) (*Charge, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("fine id: %w", err)
	}
	name := in.Name.English()
	if r := []rune(name); len(r) > maxChargeName {
		name = string(r[:maxChargeName-1]) + "…"
	}
	kind, args := in.Name.Stored()
	c := &Charge{
		ID: id, PropertyID: prop.ID, Origin: id, Name: name, NameKind: kind, NameArgs: args, Amount: in.Amount, Currency: prop.Currency,
		Period: period.MonthLabel(in.DueDate), DueDate: in.DueDate, Status: Unpaid, ContractID: &contractID,
		Kind: Fine, CreatedAt: s.now(),
	}
	if err := s.store.InsertCharge(ctx, tx, c); err != nil {
		return nil, err
	}
	if err := s.chargesCreated(ctx, tx, prop.ID, []Charge{*c}); err != nil {
		return nil, err
	}
	if err := reread(ctx, tx, c); err != nil {
		return nil, err
	}
	return c, nil
}

// CancelPenaltyOfInTx cancels, through db (the caller's transaction, which
// holds the property's lock), the late fee of the charge forID when it has
// one that is not cancelled yet: a fine that is dropped takes its late fee
// with it. ErrHasPayments when money was allocated to the late fee.
func (s *Service) CancelPenaltyOfInTx(ctx context.Context, db bun.IDB, forID uuid.UUID, by int64) error {
	ids, err := s.store.penaltiesOf(ctx, db, forID)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.CancelChargeInTx(ctx, db, id, by); err != nil {
			return err
		}
	}
	return nil
}
