package assets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/counters"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Service holds the rules of assets and inspections.
type Service struct {
	db        *bun.DB
	store     *Store
	clock     clock.Clock
	files     *documents.Files
	counters  *counters.Service
	contracts *contracts.Service
	props     *properties.Service
	renderer  *printforms.Renderer
	tenants   *contragents.Service
	accounts  *accounts.Service
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB        *bun.DB
	Store     *Store
	Clock     clock.Clock
	Files     *documents.Files
	Counters  *counters.Service
	Contracts *contracts.Service
	Props     *properties.Service
	Renderer  *printforms.Renderer
	Accounts  *accounts.Service
	// Tenants is nil when the contragents module is off: forms then
	// print no tenant name.
	Tenants *contragents.Service `optional:"true"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: p.Store, clock: p.Clock, files: p.Files, counters: p.Counters, contracts: p.Contracts,
		props: p.Props, renderer: p.Renderer, tenants: p.Tenants, accounts: p.Accounts}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func errNoAsset() error      { return fault.NotFound("Asset not found.") }
func errNoInspection() error { return fault.NotFound("Inspection not found.") }

// asset returns, through db, the asset with the raw id under prop.
func (s *Service) asset(ctx context.Context, db bun.IDB, prop *properties.Property, rawID string) (*Asset, error) {
	a, err := s.store.asset(ctx, db, prop.ID, rawID)
	if errors.Is(err, database.ErrNotFound) {
		return nil, errNoAsset()
	}
	return a, err
}

// Asset returns the asset with the raw id under prop.
func (s *Service) Asset(ctx context.Context, prop *properties.Property, rawID string) (*Asset, error) {
	return s.asset(ctx, s.db, prop, rawID)
}

// List returns one page of prop's assets, oldest first, filtered by
// category and condition.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Asset, listing.Result, error) {
	return s.store.assets(ctx, prop.ID, q)
}

// checkPhotos refuses document ids that are not documents of prop.
func (s *Service) checkPhotos(ctx context.Context, db bun.IDB, prop *properties.Property, field string, ids []uuid.UUID) error {
	if len(ids) == 0 {
		return nil
	}
	found, err := s.files.OfProperty(ctx, db, prop.ID, ids)
	if err != nil {
		return err
	}
	if len(found) != len(ids) {
		return fault.Validation(field + ": every id must be a document of this property")
	}
	return nil
}

// Create adds an asset to prop.
func (s *Service) Create(ctx context.Context, prop *properties.Property, in assetInput) (*Asset, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("asset id: %w", err)
	}
	now := s.now()
	a := &Asset{ID: id, WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, Quantity: 1, Condition: "good", Photos: "[]",
		CreatedAt: now, UpdatedAt: now}
	in.apply(a)
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.checkPhotos(ctx, tx, prop, "photos", in.photoIDs); err != nil {
			return err
		}
		if err := s.store.insertAsset(ctx, tx, a); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "asset", RecordID: a.ID.String(),
			WorkspaceID: prop.WorkspaceID, Changes: activity.Diff(nil, assetOut(a))})
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Update changes the fields in of the asset with the raw id.
func (s *Service) Update(ctx context.Context, prop *properties.Property, rawID string, in assetInput) (*Asset, error) {
	var out *Asset
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		a, err := s.asset(ctx, tx, prop, rawID)
		if err != nil {
			return err
		}
		if err := s.checkPhotos(ctx, tx, prop, "photos", in.photoIDs); err != nil {
			return err
		}
		before := assetOut(a)
		in.apply(a)
		a.UpdatedAt = s.now()
		if err := s.store.updateAsset(ctx, tx, a); err != nil {
			return err
		}
		out = a
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "asset", RecordID: a.ID.String(),
			WorkspaceID: prop.WorkspaceID, Changes: activity.Diff(before, assetOut(a))})
	})
	return out, err
}

// Delete removes the asset with the raw id; inspections keep what they
// recorded of it (its name and condition).
func (s *Service) Delete(ctx context.Context, prop *properties.Property, rawID string) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		a, err := s.asset(ctx, tx, prop, rawID)
		if err != nil {
			return err
		}
		if err := s.store.deleteAsset(ctx, tx, a.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Deleted, RecordType: "asset", RecordID: a.ID.String(),
			WorkspaceID: prop.WorkspaceID, Changes: activity.Diff(assetOut(a), nil)})
	})
}

// InspectionInput is an inspection as the handler checked it.
type InspectionInput struct {
	ContractID  uuid.UUID
	Kind        string
	InspectedOn period.Date
	Notes       string
	Photos      []uuid.UUID
	Items       []ItemInput
	Readings    []ReadingInput
}

// ItemInput is one asset's condition at an inspection.
type ItemInput struct {
	AssetID   uuid.UUID
	Condition string
	Notes     string
}

// ReadingInput is one meter reading taken at an inspection.
type ReadingInput struct {
	CounterID uuid.UUID
	Value     counters.ReadingInput
}

// CreateInspection records an inspection of a contract of prop in one
// transaction: its items (each asset's condition, which becomes the
// asset's), its meter readings (through the counters module, with their
// charges), notes and photos. 400 for a contract that is not prop's (or a
// draft), assets or documents not of prop; 409 already_inspected for a
// second check-in or check-out of the contract, no_check_in for a
// check-out before the check-in.
func (s *Service) CreateInspection(ctx context.Context, p auth.Principal, prop *properties.Property, in InspectionInput) (*Inspection, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("inspection id: %w", err)
	}
	var out *Inspection
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		// Readings may bill charges: the property's lock first, as every
		// money writer takes it.
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		c, err := s.contracts.ByID(ctx, tx, in.ContractID)
		if errors.Is(err, contracts.ErrNotFound) || (err == nil && (c.PropertyID != prop.ID || c.WorkspaceID != prop.WorkspaceID)) {
			return fault.Validation("contract_id: must be a contract of this property")
		}
		if err != nil {
			return err
		}
		if c.Status == contracts.Draft {
			return fault.Validation("contract_id: the contract is a draft; activate it first")
		}
		kinds, err := s.store.inspectionKinds(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		for _, k := range kinds {
			if k == in.Kind {
				return fault.Conflict("already_inspected", "The contract has its "+in.Kind+" inspection already.")
			}
		}
		if in.Kind == CheckOut && len(kinds) == 0 {
			return fault.Conflict("no_check_in", "Record the check-in before the check-out.")
		}
		if err := s.checkPhotos(ctx, tx, prop, "photos", in.Photos); err != nil {
			return err
		}
		items, err := s.items(ctx, tx, prop, in.Items)
		if err != nil {
			return err
		}
		readings := make([]MeterReading, 0, len(in.Readings))
		for i, r := range in.Readings {
			ctr, rd, err := s.counters.AddReadingTx(ctx, tx, p, prop, r.CounterID, r.Value)
			if err != nil {
				return readingError(i, err)
			}
			v, _ := json.Marshal(rd.Value)
			readings = append(readings, MeterReading{CounterID: ctr.ID.String(), Counter: ctr.Name, Unit: ctr.Unit,
				ReadingID: rd.ID.String(), Value: jsonNumberValue(v)})
		}
		ins := &Inspection{ID: id, WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, ContractID: c.ID, Kind: in.Kind,
			InspectedOn: in.InspectedOn, Notes: in.Notes, Photos: idsJSON(in.Photos), Items: mustJSON(items),
			Readings: mustJSON(readings), CreatedBy: p.UserID, CreatedAt: s.now()}
		if err := s.store.insertInspection(ctx, tx, ins); err != nil {
			if database.IsUniqueViolation(err) {
				return fault.Conflict("already_inspected", "The contract has its "+in.Kind+" inspection already.")
			}
			return err
		}
		// The asset's condition is the latest inspection's.
		for _, it := range in.Items {
			if err := s.store.setCondition(ctx, tx, it.AssetID, it.Condition, ins.CreatedAt); err != nil {
				return err
			}
		}
		out = ins
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "inspection", RecordID: ins.ID.String(),
			WorkspaceID: prop.WorkspaceID, Changes: map[string]activity.Change{"kind": {nil, ins.Kind}, "contract_id": {nil, c.ID.String()}}})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// items checks the items' assets against prop, read in tx.
func (s *Service) items(ctx context.Context, tx bun.IDB, prop *properties.Property, in []ItemInput) ([]Item, error) {
	if len(in) == 0 {
		return []Item{}, nil
	}
	ids := make([]uuid.UUID, len(in))
	for i, it := range in {
		ids[i] = it.AssetID
	}
	list, err := s.store.assetNames(ctx, tx, prop.ID, ids)
	if err != nil {
		return nil, err
	}
	names := make(map[uuid.UUID]string, len(list))
	for _, a := range list {
		names[a.ID] = a.Name
	}
	out := make([]Item, len(in))
	var details []string
	for i, it := range in {
		name, ok := names[it.AssetID]
		if !ok {
			details = append(details, fmt.Sprintf("items[%d].asset_id: must be an asset of this property", i))
		}
		out[i] = Item{AssetID: it.AssetID.String(), Name: name, Condition: it.Condition, Notes: it.Notes}
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	return out, nil
}

// Inspection returns the inspection with the raw id under prop.
func (s *Service) Inspection(ctx context.Context, prop *properties.Property, rawID string) (*Inspection, error) {
	ins, err := s.store.inspection(ctx, s.db, rawID, []database.Parent{database.Under("property_id", prop.ID)})
	if errors.Is(err, database.ErrNotFound) {
		return nil, errNoInspection()
	}
	return ins, err
}

// Inspections returns one page of prop's inspections, oldest first,
// filtered by contract and kind.
func (s *Service) Inspections(ctx context.Context, prop *properties.Property, q listing.Query) ([]Inspection, listing.Result, error) {
	return s.store.inspections(ctx, prop.ID, q)
}

// Changes lists, for a check-out, the assets whose condition differs from
// the check-in's (also those inspected only once), in check-in order then
// check-out order; nil for a check-in.
func (s *Service) Changes(ctx context.Context, ins *Inspection) ([]Change, error) {
	return s.changes(ctx, s.db, ins)
}

func (s *Service) changes(ctx context.Context, db bun.IDB, ins *Inspection) ([]Change, error) {
	if ins.Kind != CheckOut {
		return nil, nil
	}
	in, err := s.store.checkIn(ctx, db, ins.ContractID)
	if err != nil || in == nil {
		return []Change{}, err
	}
	return diff(parseItems(in.Items), parseItems(ins.Items)), nil
}

func diff(before, after []Item) []Change {
	out := []Change{}
	byAsset := make(map[string]Item, len(after))
	for _, it := range after {
		byAsset[it.AssetID] = it
	}
	seen := map[string]bool{}
	for _, b := range before {
		seen[b.AssetID] = true
		cond := b.Condition
		a, ok := byAsset[b.AssetID]
		switch {
		case !ok:
			out = append(out, Change{AssetID: b.AssetID, Name: b.Name, Before: &cond})
		case a.Condition != b.Condition:
			after := a.Condition
			out = append(out, Change{AssetID: b.AssetID, Name: b.Name, Before: &cond, After: &after})
		}
	}
	for _, a := range after {
		if !seen[a.AssetID] {
			cond := a.Condition
			out = append(out, Change{AssetID: a.AssetID, Name: a.Name, After: &cond})
		}
	}
	return out
}

// Matching reports, through db, whether the contract's check-out shows no
// change since its check-in: the deposit settlement's deadline in some
// countries depends on it. recorded is false when the contract lacks
// either inspection (matching is then false).
func (s *Service) Matching(ctx context.Context, db bun.IDB, contractID uuid.UUID) (matching, recorded bool, err error) {
	list, err := s.store.inspectionsOf(ctx, db, contractID)
	if err != nil {
		return false, false, err
	}
	var in, out *Inspection
	for i := range list {
		if list[i].Kind == CheckIn {
			in = &list[i]
		} else {
			out = &list[i]
		}
	}
	if in == nil || out == nil {
		return false, false, nil
	}
	return len(diff(parseItems(in.Items), parseItems(out.Items))) == 0, true, nil
}

func parseItems(s string) []Item {
	var out []Item
	_ = json.Unmarshal([]byte(s), &out)
	return out
}

func parseReadings(s string) []MeterReading {
	out := []MeterReading{}
	_ = json.Unmarshal([]byte(s), &out)
	return out
}

func parseIDs(s string) []string {
	out := []string{}
	_ = json.Unmarshal([]byte(s), &out)
	return out
}

func idsJSON(ids []uuid.UUID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	return mustJSON(s)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("assets: " + err.Error())
	}
	return string(b)
}

// readingError names the reading a counters error is about.
func readingError(i int, err error) error {
	var ae *fault.Error
	if !errors.As(err, &ae) {
		return err
	}
	if ae.Kind == fault.KindNotFound {
		return fault.Validation(fmt.Sprintf("readings[%d].counter_id: must be a counter of this property", i))
	}
	lines := ae.Details
	if len(lines) == 0 {
		lines = []string{ae.Message}
	}
	out := make([]string, len(lines))
	for j, l := range lines {
		out[j] = fmt.Sprintf("readings[%d]: %s", i, l)
	}
	if ae.Kind == fault.KindInvalid {
		return fault.Validation(out...)
	}
	e := fault.Conflict(ae.Code, out[0])
	e.Details = out
	return e
}
