package notices

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/database"
)

// batchReads is what the letters of a batch of notices name, read with
// one statement each: the contracts, their tenants, properties and
// landlords.
type batchReads struct {
	contracts  map[uuid.UUID]*contracts.Contract
	tenants    map[uuid.UUID]*contragents.Contragent
	properties map[uuid.UUID]*properties.Property
	owners     map[int64]*accounts.User
}

// readBatch reads, through db, the contracts with ids and who and what
// their letters name.
func (s *store) readBatch(ctx context.Context, db bun.IDB, ids []uuid.UUID) (*batchReads, error) {
	var cs []contracts.Contract
	if err := database.Select(ctx, db, db.NewSelect().Model(&cs).Where("id ?", database.In(ids))); err != nil {
		return nil, fmt.Errorf("contracts of notices: %w", err)
	}
	r := &batchReads{contracts: make(map[uuid.UUID]*contracts.Contract, len(cs))}
	var tenantIDs, propIDs []uuid.UUID
	var ownerIDs []int64
	for i := range cs {
		c := &cs[i]
		r.contracts[c.ID] = c
		tenantIDs = append(tenantIDs, c.TenantID)
		propIDs = append(propIDs, c.PropertyID)
		ownerIDs = append(ownerIDs, c.OwnerID)
	}
	if len(cs) == 0 {
		return r, nil
	}
	var tenants []contragents.Contragent
	if err := database.Select(ctx, db, db.NewSelect().Model(&tenants).Where("id ?", database.In(tenantIDs))); err != nil {
		return nil, fmt.Errorf("tenants of notices: %w", err)
	}
	r.tenants = make(map[uuid.UUID]*contragents.Contragent, len(tenants))
	for i := range tenants {
		r.tenants[tenants[i].ID] = &tenants[i]
	}
	var props []properties.Property
	if err := database.Select(ctx, db, db.NewSelect().Model(&props).Where("id ?", database.In(propIDs))); err != nil {
		return nil, fmt.Errorf("properties of notices: %w", err)
	}
	r.properties = make(map[uuid.UUID]*properties.Property, len(props))
	for i := range props {
		r.properties[props[i].ID] = &props[i]
	}
	var owners []accounts.User
	if err := database.Select(ctx, db, db.NewSelect().Model(&owners).
		Column("id", "name", "address_line", "address_postal_code", "address_city", "address_country_code").
		Where("id ?", database.In(ownerIDs))); err != nil {
		return nil, fmt.Errorf("landlords of notices: %w", err)
	}
	r.owners = make(map[int64]*accounts.User, len(owners))
	for i := range owners {
		r.owners[owners[i].ID] = &owners[i]
	}
	return r, nil
}

// climbAll records the steps of ds as climb does, with one statement.
func (s *store) climbAll(ctx context.Context, db bun.IDB, ds []Dunning) error {
	if len(ds) == 0 {
		return nil
	}
	_, err := database.Exec(ctx, db, db.NewInsert().Model(&ds).On("CONFLICT (contract_id) DO UPDATE").
		Set("since = EXCLUDED.since").Set("step = EXCLUDED.step").Set("sent_on = EXCLUDED.sent_on").
		Set("updated_at = EXCLUDED.updated_at").
		Where("dunning.step < EXCLUDED.step OR dunning.since <> EXCLUDED.since"))
	if err != nil {
		return fmt.Errorf("dunning steps: %w", err)
	}
	return nil
}
