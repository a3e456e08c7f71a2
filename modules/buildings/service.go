package buildings

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/validate"
)

// Service holds the rules of buildings, units and households.
type Service struct {
	db         *bun.DB
	store      *Store
	clock      clock.Clock
	properties *properties.Service
	contracts  *contracts.Service
}

// NewService returns the service.
func NewService(db *bun.DB, store *Store, clk clock.Clock, props *properties.Service, ctr *contracts.Service) *Service {
	return &Service{db: db, store: store, clock: clk, properties: props, contracts: ctr}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func errNoBuilding() error { return fault.NotFound("Building not found.") }

// Authorize returns the building with the raw id when p's workspace holds
// it (403, or 404 to a linked tenant, otherwise; 404 for an unknown id).
func (s *Service) Authorize(ctx context.Context, p auth.Principal, rawID string) (*Building, error) {
	b, found, err := s.store.byID(ctx, rawID, &p)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errNoBuilding()
	}
	if b.WorkspaceID != p.WorkspaceID && !p.IsAdmin() {
		return nil, auth.Refuse(ctx, p, "This building belongs to another workspace.", "Building not found.")
	}
	return b, nil
}

// List returns a page of the buildings of p's workspace, oldest first.
func (s *Service) List(ctx context.Context, p *auth.Principal, q listing.Query) ([]Building, listing.Result, error) {
	return s.store.list(ctx, p, q)
}

// Create records a building of p's workspace.
func (s *Service) Create(ctx context.Context, p auth.Principal, in Input) (*Building, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("building id: %w", err)
	}
	now := s.now()
	b := &Building{ID: id, WorkspaceID: p.WorkspaceID, OwnerID: p.Landlord, CreatedAt: now, UpdatedAt: now}
	var details []string
	if in.Name == nil {
		details = append(details, "name: is required")
	}
	if in.CountryCode == nil {
		details = append(details, "country_code: is required")
	}
	if err := apply(b, in, details); err != nil {
		return nil, err
	}
	return b, database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.insert(ctx, tx, b); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Created, "building", b.ID, b.WorkspaceID, nil, toJSON(b)))
	})
}

// Update changes the given fields of the building.
func (s *Service) Update(ctx context.Context, b *Building, in Input) (*Building, error) {
	before := *b
	if err := apply(b, in, nil); err != nil {
		return nil, err
	}
	b.UpdatedAt = s.now()
	return b, database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.update(ctx, tx, b); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Updated, "building", b.ID, b.WorkspaceID, toJSON(&before), toJSON(b)))
	})
}

// Delete removes the building; its units leave it (the properties stay).
func (s *Service) Delete(ctx context.Context, b *Building) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.delete(ctx, tx, b.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Deleted, "building", b.ID, b.WorkspaceID, toJSON(b), nil))
	})
}

func apply(b *Building, in Input, details []string) error {
	details = append(details, validate.Struct(&in)...)
	if in.Name != nil {
		if strings.TrimSpace(*in.Name) == "" {
			details = append(details, "name: must not be blank")
		}
		b.Name = strings.TrimSpace(*in.Name)
	}
	if in.Address != nil {
		b.Address = strings.TrimSpace(*in.Address)
	}
	if in.PostalCode != nil {
		b.PostalCode = strings.TrimSpace(*in.PostalCode)
	}
	if in.City != nil {
		b.City = strings.TrimSpace(*in.City)
	}
	if in.CountryCode != nil {
		c := strings.ToUpper(strings.TrimSpace(*in.CountryCode))
		if len(c) != 2 || strings.Trim(c, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			details = append(details, "country_code: must be a two-letter ISO 3166-1 code")
		}
		b.Country = c
	}
	if len(details) > 0 {
		return fault.Validation(details...)
	}
	return nil
}

// Units returns the building's units with their properties, which p may
// read (they are of the building's workspace).
func (s *Service) Units(ctx context.Context, p auth.Principal, b *Building) ([]Unit, []*properties.Property, error) {
	units, err := UnitsOf(ctx, s.db, b.ID)
	if err != nil {
		return nil, nil, err
	}
	props := make([]*properties.Property, len(units))
	for i, u := range units {
		if props[i], err = s.properties.Authorize(ctx, p, u.PropertyID.String()); err != nil {
			return nil, nil, err
		}
	}
	return units, props, nil
}

// PutUnit makes the property a unit of the building with the data given
// (a property already in another building moves to this one).
func (s *Service) PutUnit(ctx context.Context, p auth.Principal, b *Building, rawProperty string, in UnitInput) (*Unit, *properties.Property, error) {
	prop, err := s.properties.Authorize(ctx, p, rawProperty)
	if err != nil {
		return nil, nil, err
	}
	if prop.WorkspaceID != b.WorkspaceID {
		return nil, nil, fault.Validation("propertyId: must be a property of the building's workspace")
	}
	if d := validate.Struct(&in); len(d) > 0 {
		return nil, nil, fault.Validation(d...)
	}
	if in.HeatingType != nil && !slices.Contains(HeatingTypes, *in.HeatingType) {
		return nil, nil, fault.Validation("heating_type: must be one of " + strings.Join(HeatingTypes, ", "))
	}
	if in.Use != nil && !slices.Contains(Uses, *in.Use) {
		return nil, nil, fault.Validation("use: must be one of " + strings.Join(Uses, ", "))
	}
	var u *Unit
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		old, err := s.store.unitOf(ctx, tx, prop.ID)
		if err != nil {
			return err
		}
		u = &Unit{PropertyID: prop.ID, HeatingType: "unknown", Use: UseResidential}
		if old != nil {
			*u = *old
		}
		u.BuildingID, u.UpdatedAt = b.ID, s.now()
		if in.Rooms != nil {
			u.Rooms = in.Rooms
		}
		if in.Floor != nil {
			u.Floor = in.Floor
		}
		if in.Share != nil {
			v := int64(*in.Share)
			u.ShareE4 = &v
		}
		if in.HeatingType != nil {
			u.HeatingType = *in.HeatingType
		}
		if in.Use != nil {
			u.Use = *in.Use
		}
		if err := s.store.saveUnit(ctx, tx, u, old != nil); err != nil {
			return err
		}
		var before any
		if old != nil {
			before = unitOut(old, prop)
		}
		return activity.Record(ctx, tx, entry(activity.Updated, "building_unit", prop.ID, b.WorkspaceID, before, unitOut(u, prop)))
	})
	if err != nil {
		return nil, nil, err
	}
	return u, prop, nil
}

// RemoveUnit takes the property out of the building.
func (s *Service) RemoveUnit(ctx context.Context, p auth.Principal, b *Building, rawProperty string) error {
	prop, err := s.properties.Authorize(ctx, p, rawProperty)
	if err != nil {
		return err
	}
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		old, err := s.store.unitOf(ctx, tx, prop.ID)
		if err != nil {
			return err
		}
		if old == nil || old.BuildingID != b.ID {
			return fault.NotFound("The property is not a unit of this building.")
		}
		if err := s.store.deleteUnit(ctx, tx, prop.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Deleted, "building_unit", prop.ID, b.WorkspaceID, unitOut(old, prop), nil))
	})
}

// Contract returns the contract with the raw id when p may see it.
func (s *Service) Contract(ctx context.Context, p auth.Principal, rawID string) (*contracts.Contract, error) {
	return s.contracts.Authorize(ctx, p, rawID)
}

// Households returns the contract's household sizes, oldest first.
func (s *Service) Households(ctx context.Context, c *contracts.Contract) ([]Household, error) {
	m, err := HouseholdsOf(ctx, s.db, []uuid.UUID{c.ID})
	if err != nil {
		return nil, err
	}
	return m[c.ID], nil
}

// AddHousehold records how many persons live under the contract from a
// day on; one change per day (409 household_exists for a second).
func (s *Service) AddHousehold(ctx context.Context, c *contracts.Contract, in HouseholdInput) (*Household, error) {
	if d := validate.Struct(&in); len(d) > 0 {
		return nil, fault.Validation(d...)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("household id: %w", err)
	}
	h := &Household{ID: id, ContractID: c.ID, WorkspaceID: c.WorkspaceID, Persons: *in.Persons, From: *in.From, CreatedAt: s.now()}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		list, err := HouseholdsOf(ctx, tx, []uuid.UUID{c.ID})
		if err != nil {
			return err
		}
		for _, o := range list[c.ID] {
			if o.From == h.From {
				return fault.Conflict("household_exists", "The contract already has a household size from this day.")
			}
		}
		if err := s.store.insertHousehold(ctx, tx, h); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Created, "contract_household", h.ID, c.WorkspaceID, nil, householdOut(h)))
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}

func unitOut(u *Unit, prop *properties.Property) unitJSON {
	var share *Share
	if u.ShareE4 != nil {
		v := Share(*u.ShareE4)
		share = &v
	}
	return unitJSON{PropertyID: u.PropertyID, BuildingID: u.BuildingID, Name: prop.Name, LivingArea: prop.LivingArea(),
		Rooms: u.Rooms, Floor: u.Floor, Share: share, HeatingType: u.HeatingType, Use: u.Use}
}

func householdOut(h *Household) householdJSON {
	return householdJSON{ID: h.ID, ContractID: h.ContractID, Persons: h.Persons, From: h.From}
}

func entry(action, kind string, id uuid.UUID, workspace int64, before, after any) activity.Entry {
	return activity.Entry{Action: action, RecordType: kind, RecordID: id.String(), WorkspaceID: workspace,
		Changes: activity.Diff(before, after)}
}
