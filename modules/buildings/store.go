package buildings

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// Store reads and writes buildings, their units and households.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// byID reads the building with the raw id and settles p's role in the same
// statement; found is false when no building has it.
func (s *Store) byID(ctx context.Context, rawID string, p *auth.Principal) (*Building, bool, error) {
	b := new(Building)
	found, err := listing.ReadByID(ctx, s.db, b, rawID, p)
	if err != nil {
		return nil, false, fmt.Errorf("building by id: %w", err)
	}
	return b, found, nil
}

func (s *Store) list(ctx context.Context, p *auth.Principal, q listing.Query) ([]Building, listing.Result, error) {
	var out []Building
	res, err := listing.ScanWorkspace(ctx, s.db.NewSelect().Model(&out), "workspace_id", p, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list buildings: %w", err)
	}
	return out, res, nil
}

func (s *Store) insert(ctx context.Context, db bun.IDB, b *Building) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(b)); err != nil {
		return fmt.Errorf("insert building: %w", err)
	}
	return nil
}

func (s *Store) update(ctx context.Context, db bun.IDB, b *Building) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(b).
		Column("name", "address", "postal_code", "city", "country_code", "updated_at").Where("id = ?", b.ID))
	if err != nil {
		return fmt.Errorf("update building: %w", err)
	}
	return nil
}

func (s *Store) delete(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Unit)(nil)).Where("building_id = ?", id)); err != nil {
		return fmt.Errorf("delete building units: %w", err)
	}
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Building)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("delete building: %w", err)
	}
	return nil
}

// UnitsOf returns, through db, the units of the building, by property id.
func UnitsOf(ctx context.Context, db bun.IDB, buildingID uuid.UUID) ([]Unit, error) {
	var out []Unit
	q := db.NewSelect().Model(&out).Where("building_id = ?", buildingID).Order("property_id")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("building units: %w", err)
	}
	return out, nil
}

// unitOf returns the unit row of the property, nil when it is in no
// building.
func (s *Store) unitOf(ctx context.Context, db bun.IDB, propertyID uuid.UUID) (*Unit, error) {
	u := new(Unit)
	err := database.Select(ctx, db, db.NewSelect().Model(u).Where("property_id = ?", propertyID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("unit: %w", err)
	}
	return u, nil
}

func (s *Store) saveUnit(ctx context.Context, db bun.IDB, u *Unit, exists bool) error {
	var err error
	if exists {
		_, err = database.Exec(ctx, db, db.NewUpdate().Model(u).
			Column("building_id", "rooms", "floor", "share_e4", "heating_type", "unit_use", "updated_at").Where("property_id = ?", u.PropertyID))
	} else {
		_, err = database.Exec(ctx, db, db.NewInsert().Model(u))
	}
	if err != nil {
		return fmt.Errorf("save unit: %w", err)
	}
	return nil
}

func (s *Store) deleteUnit(ctx context.Context, db bun.IDB, propertyID uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Unit)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return fmt.Errorf("delete unit: %w", err)
	}
	return nil
}

// HouseholdsOf returns, through db, the household rows of the contracts,
// each contract's in date order.
func HouseholdsOf(ctx context.Context, db bun.IDB, contractIDs []uuid.UUID) (map[uuid.UUID][]Household, error) {
	out := map[uuid.UUID][]Household{}
	if len(contractIDs) == 0 {
		return out, nil
	}
	var list []Household
	q := db.NewSelect().Model(&list).Where("contract_id ?", database.In(contractIDs)).Order("contract_id", "from_date")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("households: %w", err)
	}
	for _, h := range list {
		out[h.ContractID] = append(out[h.ContractID], h)
	}
	return out, nil
}

func (s *Store) insertHousehold(ctx context.Context, db bun.IDB, h *Household) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(h)); err != nil {
		return fmt.Errorf("insert household: %w", err)
	}
	return nil
}

// unitsOfProperties returns the unit rows of the properties, by property.
func (s *Store) unitsOfProperties(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]Unit, error) {
	out := map[uuid.UUID]Unit{}
	if len(ids) == 0 {
		return out, nil
	}
	var list []Unit
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("property_id ?", database.In(ids))); err != nil {
		return nil, fmt.Errorf("units of properties: %w", err)
	}
	for _, u := range list {
		out[u.PropertyID] = u
	}
	return out, nil
}

// InWorkspace returns, through db, every building of the workspace, by
// id (the operating-cost deadlines of the calendar read them at once).
func InWorkspace(ctx context.Context, db bun.IDB, workspaceID int64) ([]Building, error) {
	var out []Building
	q := db.NewSelect().Model(&out).Where("workspace_id = ?", database.Param{V: workspaceID}).Order("id")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("buildings of workspace: %w", err)
	}
	return out, nil
}
