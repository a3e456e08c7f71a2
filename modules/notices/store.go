package notices

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/database"
)

// store reads and writes the settings.
type store struct{ db *bun.DB }

// workspace is the workspace's settings (the defaults when it chose none),
// read through db.
func (s *store) workspace(ctx context.Context, db bun.IDB, workspaceID int64) (*Settings, error) {
	st := new(Settings)
	err := database.Select(ctx, db, db.NewSelect().Model(st).Where("workspace_id = ?", database.Param{V: workspaceID}))
	if errors.Is(err, sql.ErrNoRows) {
		return defaults(workspaceID), nil
	}
	if err != nil {
		return nil, fmt.Errorf("notice settings: %w", err)
	}
	return st, nil
}

// contract is the contract's own choice, nil when it made none.
func (s *store) contract(ctx context.Context, db bun.IDB, contractID uuid.UUID) (*ContractSettings, error) {
	c := new(ContractSettings)
	err := database.Select(ctx, db, db.NewSelect().Model(c).Where("contract_id = ?", contractID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("contract notice settings: %w", err)
	}
	return c, nil
}

// contracts are the choices of the workspace's contracts among ids, by
// contract: one statement for a page of candidates.
func (s *store) contracts(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]*ContractSettings, error) {
	out := make(map[uuid.UUID]*ContractSettings, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var list []ContractSettings
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("contract_id ?", database.In(ids))); err != nil {
		return nil, fmt.Errorf("contract notice settings: %w", err)
	}
	for i := range list {
		out[list[i].ContractID] = &list[i]
	}
	return out, nil
}

func (s *store) saveWorkspace(ctx context.Context, db bun.IDB, st *Settings) error {
	_, err := database.Exec(ctx, db, db.NewInsert().Model(st).On("CONFLICT (workspace_id) DO UPDATE").
		Set("rent_call = EXCLUDED.rent_call").Set("rent_call_days = EXCLUDED.rent_call_days").
		Set("reminder = EXCLUDED.reminder").Set("receipt = EXCLUDED.receipt").
		Set("contract_end = EXCLUDED.contract_end").Set("contract_end_days = EXCLUDED.contract_end_days").
		Set("rent_change = EXCLUDED.rent_change").Set("reminder_step2_days = EXCLUDED.reminder_step2_days").
		Set("reminder_step3_days = EXCLUDED.reminder_step3_days").Set("updated_at = EXCLUDED.updated_at"))
	if err != nil {
		return fmt.Errorf("save notice settings: %w", err)
	}
	return nil
}

func (s *store) saveContract(ctx context.Context, db bun.IDB, c *ContractSettings) error {
	_, err := database.Exec(ctx, db, db.NewInsert().Model(c).On("CONFLICT (contract_id) DO UPDATE").
		Set("rent_call = EXCLUDED.rent_call").Set("reminder = EXCLUDED.reminder").Set("receipt = EXCLUDED.receipt").
		Set("contract_end = EXCLUDED.contract_end").Set("rent_change = EXCLUDED.rent_change").
		Set("reminder_step2_days = EXCLUDED.reminder_step2_days").Set("reminder_step3_days = EXCLUDED.reminder_step3_days").
		Set("updated_at = EXCLUDED.updated_at"))
	if err != nil {
		return fmt.Errorf("save contract notice settings: %w", err)
	}
	return nil
}

// ladder is the workspace's contracts on the ladder, by contract.
func (s *store) ladder(ctx context.Context, db bun.IDB, workspaceID int64) (map[uuid.UUID]*Dunning, error) {
	var list []Dunning
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("workspace_id = ?", database.Param{V: workspaceID})); err != nil {
		return nil, fmt.Errorf("dunning: %w", err)
	}
	out := make(map[uuid.UUID]*Dunning, len(list))
	for i := range list {
		out[list[i].ContractID] = &list[i]
	}
	return out, nil
}

// climb records the step d now stands on, in the notice's transaction.
func (s *store) climb(ctx context.Context, db bun.IDB, d *Dunning) error {
	// A notice written twice (a retried run) leaves the step's day as it
	// was: only a higher step or a new arrear moves it.
	_, err := database.Exec(ctx, db, db.NewInsert().Model(d).On("CONFLICT (contract_id) DO UPDATE").
		Set("since = EXCLUDED.since").Set("step = EXCLUDED.step").Set("sent_on = EXCLUDED.sent_on").
		Set("updated_at = EXCLUDED.updated_at").
		Where("dunning.step < EXCLUDED.step OR dunning.since <> EXCLUDED.since"))
	if err != nil {
		return fmt.Errorf("dunning step: %w", err)
	}
	return nil
}

// release takes contracts off the ladder: their arrear is paid.
func (s *store) release(ctx context.Context, db bun.IDB, ids []uuid.UUID) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := database.Exec(ctx, db, db.NewDelete().Model((*Dunning)(nil)).Where("contract_id ?", database.In(ids)))
	if err != nil {
		return fmt.Errorf("end dunning: %w", err)
	}
	return nil
}

// propertyAndOwner reads, through db, the property of contract c and its
// landlord (the columns a letter names).
func (s *store) propertyAndOwner(ctx context.Context, db bun.IDB, c *contracts.Contract) (*properties.Property, *accounts.User, error) {
	prop := new(properties.Property)
	if err := database.Select(ctx, db, db.NewSelect().Model(prop).Where("id = ?", c.PropertyID)); err != nil {
		return nil, nil, fmt.Errorf("property of notice: %w", err)
	}
	owner := new(accounts.User)
	if err := database.Select(ctx, db, db.NewSelect().Model(owner).
		Column("id", "name", "address_line", "address_postal_code", "address_city", "address_country_code").
		Where("id = ?", database.Param{V: c.OwnerID})); err != nil {
		return nil, nil, fmt.Errorf("landlord of notice: %w", err)
	}
	return prop, owner, nil
}
