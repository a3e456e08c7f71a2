package buildings

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
)

// What an import does to one row's unit.
const (
	ImportAdded     = "added"
	ImportUpdated   = "updated"
	ImportUnchanged = "unchanged"
)

// ImportLine is what an import did (or, in a dry run, would do) with one
// line of the file.
type ImportLine struct {
	Line       int       `json:"line"`
	PropertyID uuid.UUID `json:"property_id"`
	Name       string    `json:"name"`
	Action     string    `json:"action"`
	// Changed names the fields the line changes, in column order.
	Changed []string `json:"changed"`
	// FromBuildingID is the building the unit leaves for this one.
	FromBuildingID *uuid.UUID `json:"from_building_id"`
}

// ImportResult is the answer of an import.
type ImportResult struct {
	DryRun    bool         `json:"dry_run"`
	Added     int          `json:"added"`
	Updated   int          `json:"updated"`
	Unchanged int          `json:"unchanged"`
	Lines     []ImportLine `json:"lines"`
}

// ImportUnits reads a CSV file of units into the building: each line
// names a property of the building's workspace (by id or by its exact
// name) and the unit data to set; empty cells leave a value as it is.
// All lines are written in one transaction, or none (400 with every
// problem, each naming its line and column). A dry run answers the same
// without writing. Importing the same file again changes nothing.
func (s *Service) ImportUnits(ctx context.Context, p auth.Principal, b *Building, body []byte, dryRun bool) (*ImportResult, error) {
	rows, details := parseUnitsCSV(body)
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	props, err := s.resolve(ctx, p, b, rows)
	if err != nil {
		return nil, err
	}
	res := &ImportResult{DryRun: dryRun, Lines: make([]ImportLine, 0, len(rows))}
	plan := func(ctx context.Context, db bun.IDB, tx *bun.Tx) error {
		ids := make([]uuid.UUID, len(props))
		for i, prop := range props {
			ids[i] = prop.ID
		}
		existing, err := s.store.unitsOfProperties(ctx, db, ids)
		if err != nil {
			return err
		}
		for i, row := range rows {
			prop := props[i]
			old, had := existing[prop.ID]
			u := Unit{PropertyID: prop.ID, HeatingType: "unknown", Use: UseResidential}
			if had {
				u = old
			}
			line := ImportLine{Line: row.Line, PropertyID: prop.ID, Name: prop.Name, Action: ImportUnchanged, Changed: []string{}}
			var area properties.Input
			if row.LivingArea != nil {
				a, err := money.Parse(row.LivingArea)
				if err != nil || a <= 0 || a > properties.MaxLivingArea*100 {
					return fault.Validation(fmt.Sprintf("line %d: living_area: must be more than 0 and at most %d square metres", row.Line, properties.MaxLivingArea))
				}
				if prop.LivingAreaCenti == nil || *prop.LivingAreaCenti != int64(a) {
					line.Changed = append(line.Changed, colLivingArea)
					area.LivingArea = row.LivingArea
				}
			}
			if row.Rooms != nil && !eqInt(u.Rooms, row.Rooms) {
				line.Changed, u.Rooms = append(line.Changed, colRooms), row.Rooms
			}
			if row.Floor != nil && !eqInt(u.Floor, row.Floor) {
				line.Changed, u.Floor = append(line.Changed, colFloor), row.Floor
			}
			if row.Share != nil {
				v := int64(*row.Share)
				if !eqInt(u.ShareE4, &v) {
					line.Changed, u.ShareE4 = append(line.Changed, colShare), &v
				}
			}
			if row.HeatingType != nil && u.HeatingType != *row.HeatingType {
				line.Changed, u.HeatingType = append(line.Changed, colHeatingType), *row.HeatingType
			}
			switch {
			case !had || old.BuildingID != b.ID:
				line.Action = ImportAdded
				if had {
					from := old.BuildingID
					line.FromBuildingID = &from
				}
				res.Added++
			case len(line.Changed) > 0:
				line.Action = ImportUpdated
				res.Updated++
			default:
				res.Unchanged++
			}
			res.Lines = append(res.Lines, line)
			if tx == nil || line.Action == ImportUnchanged {
				continue
			}
			if area.LivingArea != nil {
				if err := s.properties.UpdateInTx(ctx, *tx, prop, area); err != nil {
					return err
				}
			}
			u.BuildingID, u.UpdatedAt = b.ID, s.now()
			if err := s.store.saveUnit(ctx, *tx, &u, had); err != nil {
				return err
			}
			var before any
			if had {
				before = unitOut(&old, prop)
			}
			if err := activity.Record(ctx, *tx, entry(activity.Imported, "building_unit", prop.ID, b.WorkspaceID, before, unitOut(&u, prop))); err != nil {
				return err
			}
		}
		return nil
	}
	if dryRun {
		err = plan(ctx, s.db, nil)
	} else {
		err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error { return plan(ctx, tx, &tx) })
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

func eqInt(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// resolve finds the property each row names: by id (a property of the
// building's workspace, archived ones too) or by its name among the
// workspace's active properties (exact, without case; a name two
// properties share must be given as an id).
func (s *Service) resolve(ctx context.Context, p auth.Principal, b *Building, rows []importRow) ([]*properties.Property, error) {
	byName := map[string][]*properties.Property{}
	err := s.properties.EachActive(ctx, b.WorkspaceID, func(prop *properties.Property) error {
		k := strings.ToLower(strings.TrimSpace(prop.Name))
		byName[k] = append(byName[k], prop)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]*properties.Property, len(rows))
	seen := map[uuid.UUID]int{}
	var details []string
	for i, row := range rows {
		bad := func(msg string) { details = append(details, fmt.Sprintf("line %d: property: %s", row.Line, msg)) }
		var prop *properties.Property
		if id, err := uuid.Parse(row.Property); err == nil {
			got, err := s.properties.Authorize(ctx, p, id.String())
			_, refused := fault.KindOf(err)
			switch {
			case refused:
				bad("no property of this workspace has the id " + id.String())
				continue
			case err != nil:
				return nil, err
			case got.WorkspaceID != b.WorkspaceID:
				bad("must be a property of the building's workspace")
				continue
			}
			prop = got
		} else {
			switch list := byName[strings.ToLower(row.Property)]; len(list) {
			case 0:
				bad(fmt.Sprintf("no property of this workspace is named %q; create it first or give its id", row.Property))
				continue
			case 1:
				prop = list[0]
			default:
				bad(fmt.Sprintf("%d properties are named %q; give the id", len(list), row.Property))
				continue
			}
		}
		if first, dup := seen[prop.ID]; dup {
			bad(fmt.Sprintf("names the same property as line %d", first))
			continue
		}
		seen[prop.ID] = row.Line
		out[i] = prop
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	return slices.Clip(out), nil
}
