package compensations

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// The module's queries. Each takes the bun.IDB it runs on, so a caller in
// a transaction passes the transaction.

func insertCompensation(ctx context.Context, db bun.IDB, cp *Compensation) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(cp)); err != nil {
		return fmt.Errorf("insert compensation: %w", err)
	}
	return nil
}

// compensationOf is the property's compensation with id, or nil.
func compensationOf(ctx context.Context, db bun.IDB, propertyID, id uuid.UUID) (*Compensation, error) {
	cp := new(Compensation)
	err := database.Select(ctx, db, db.NewSelect().Model(cp).Where("id = ?", id).Where("property_id = ?", propertyID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("compensation: %w", err)
	}
	return cp, nil
}

// listCompensations is one page of the property's compensations, oldest
// first, filtered by status, kind and contract (listing.UUID checked it).
func listCompensations(ctx context.Context, db bun.IDB, propertyID uuid.UUID, q listing.Query) ([]Compensation, listing.Result, error) {
	var list []Compensation
	sel := db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	for _, f := range []string{"status", "kind"} {
		if v := q.Get(f); v != "" {
			sel = sel.Where("? = ?", bun.Ident(f), v)
		}
	}
	if id, err := uuid.Parse(q.Get("contract_id")); err == nil {
		sel = sel.Where("contract_id = ?", id)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("compensations: %w", err)
	}
	return list, res, nil
}

func updateCompensation(ctx context.Context, db bun.IDB, cp *Compensation) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model(cp).
		Column("status", "payment_id", "method", "reference", "paid_on", "reason", "updated_at").Where("id = ?", cp.ID)); err != nil {
		return fmt.Errorf("update compensation: %w", err)
	}
	return nil
}

// settled reports whether the contract's deposit has a settlement.
func settled(ctx context.Context, db bun.IDB, contractID uuid.UUID) (bool, error) {
	done, err := database.Exists(ctx, db, db.NewSelect().Model((*Settlement)(nil)).Where("contract_id = ?", contractID))
	if err != nil {
		return false, fmt.Errorf("settlement of contract: %w", err)
	}
	return done, nil
}

// insertSettlement writes st; the unique contract_id makes a second
// settlement of one contract a unique violation the caller reports.
func insertSettlement(ctx context.Context, db bun.IDB, st *Settlement) error {
	_, err := database.Exec(ctx, db, db.NewInsert().Model(st))
	return err
}

func setSettlementCompensation(ctx context.Context, db bun.IDB, st *Settlement) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model(st).Column("compensation_id").Where("id = ?", st.ID)); err != nil {
		return fmt.Errorf("settlement compensation: %w", err)
	}
	return nil
}

// loadSettlement is the settlement with id, or nil.
func loadSettlement(ctx context.Context, db bun.IDB, id uuid.UUID) (*Settlement, error) {
	st := new(Settlement)
	err := database.Select(ctx, db, db.NewSelect().Model(st).Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("settlement: %w", err)
	}
	return st, nil
}

// listSettlements is one page of the property's settlements, oldest first.
func listSettlements(ctx context.Context, db bun.IDB, propertyID uuid.UUID, q listing.Query) ([]Settlement, listing.Result, error) {
	var list []Settlement
	sel := db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	if id, err := uuid.Parse(q.Get("contract_id")); err == nil {
		sel = sel.Where("contract_id = ?", id)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("settlements: %w", err)
	}
	return list, res, nil
}
