package properties

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"
	"golang.org/x/text/currency"

	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
)

// Dependent is a module that keeps records under a property. The properties
// module does not know those records; it asks every Dependent, inside the
// transaction that deletes the property, to refuse the deletion (return an
// *fault.Error such as 409 has_charges) or to delete its own rows.
type Dependent interface {
	PropertyDeleting(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error
}

// ProvideDependent registers a constructor of a Dependent with fx.
func ProvideDependent(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(Dependent)), fx.ResultTags(`group:"property_dependents"`)))
}

// Limit is a module that bounds how many active properties a workspace may
// have (the billing module's plans). It is asked in the transaction that
// adds a property or brings one back into use, with every query through
// tx, and refuses with an *fault.Error (402 plan_limit).
type Limit interface {
	PropertyAdding(ctx context.Context, tx bun.Tx, workspaceID int64) error
}

// ProvideLimit registers a constructor of a Limit with fx.
func ProvideLimit(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(Limit)), fx.ResultTags(`group:"property_limits"`)))
}

// Service holds the rules of properties and the access check every route
// under /properties/{propertyId} goes through.
type Service struct {
	db         *bun.DB
	store      *Store
	countries  *reference.Directory
	clock      clock.Clock
	dependents []Dependent
	limits     []Limit
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB         *bun.DB
	Store      *Store
	Countries  *reference.Directory
	Clock      clock.Clock
	Dependents []Dependent `group:"property_dependents"`
	Limits     []Limit     `group:"property_limits"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: p.Store, countries: p.Countries, clock: p.Clock, dependents: p.Dependents, limits: p.Limits}
}

// Input carries a property's editable fields, already trimmed and checked
// for length. A nil field is left as it is by Update; Create needs Name and
// CountryCode.
type Input struct {
	Name        *string
	Address     *string
	City        *string
	PostalCode  *string
	CountryCode *string
	Currency    *string
	// LivingArea is the JSON value given: nil keeps the area, null
	// removes it, a number in square metres sets it.
	LivingArea json.RawMessage
}

// Authorize returns the property with the raw id when p may see and change
// it: 404 when the id is not a UUID or no property has it, 403 when it
// belongs to someone else and p is not an admin.
func (s *Service) Authorize(ctx context.Context, p auth.Principal, rawID string) (*Property, error) {
	return s.Get(ctx, &p, rawID)
}

// Get is Authorize with p's role still to be read on the route of one
// property (auth.Routes.Read): the property's statement reads it too
// (listing.ReadByID), and p is settled.
func (s *Service) Get(ctx context.Context, p *auth.Principal, rawID string) (*Property, error) {
	rec := new(Property)
	found, err := listing.ReadByID(ctx, s.db, rec, rawID, p)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fault.NotFound("Property not found.")
	}
	if rec.WorkspaceID != p.WorkspaceID && !p.IsAdmin() {
		return nil, auth.Refuse(ctx, *p, "This property belongs to another user.", "Property not found.")
	}
	return rec, nil
}

// List returns a page of the properties of p's workspace and how many
// there are. Admins too see their own here; they reach other users'
// properties by id.
func (s *Service) List(ctx context.Context, p *auth.Principal, q listing.Query) ([]Property, listing.Result, error) {
	return s.store.List(ctx, p, q)
}

// Create adds a property owned by p.
func (s *Service) Create(ctx context.Context, p auth.Principal, in Input) (*Property, error) {
	var missing []string
	if in.Name == nil {
		missing = append(missing, "name: is required")
	}
	if in.CountryCode == nil {
		missing = append(missing, "country_code: is required")
	}
	if len(missing) > 0 {
		return nil, fault.Validation(missing...)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("property id: %w", err)
	}
	now := s.now()
	prop := &Property{ID: id, WorkspaceID: p.WorkspaceID, OwnerID: p.Landlord, CreatedAt: now, UpdatedAt: now}
	if err := s.apply(prop, in); err != nil {
		return nil, err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.adding(ctx, tx, prop.WorkspaceID); err != nil {
			return err
		}
		if err := s.store.Insert(ctx, tx, prop); err != nil {
			return err
		}
		return s.record(ctx, tx, activity.Created, prop, nil, toJSON(prop))
	})
	if err != nil {
		return nil, err
	}
	return prop, nil
}

// Update changes the given fields of prop, which the caller got from
// Authorize.
func (s *Service) Update(ctx context.Context, prop *Property, in Input) (*Property, error) {
	before := *prop
	if err := s.apply(prop, in); err != nil {
		return nil, err
	}
	if *prop == before {
		return prop, nil
	}
	prop.UpdatedAt = s.now()
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.Update(ctx, tx, prop); err != nil {
			return err
		}
		return s.record(ctx, tx, activity.Updated, prop, toJSON(&before), toJSON(prop))
	})
	if err != nil {
		return nil, err
	}
	return prop, nil
}

// UpdateInTx is Update inside the caller's transaction, for a module that
// changes a property together with records of its own (the buildings
// module's unit import sets the living area so, all rows or none).
func (s *Service) UpdateInTx(ctx context.Context, tx bun.Tx, prop *Property, in Input) error {
	before := *prop
	if err := s.apply(prop, in); err != nil {
		return err
	}
	if *prop == before {
		return nil
	}
	prop.UpdatedAt = s.now()
	if err := s.store.Update(ctx, tx, prop); err != nil {
		return err
	}
	return s.record(ctx, tx, activity.Updated, prop, toJSON(&before), toJSON(prop))
}

// SetArchived archives prop (or brings it back into use). Archiving keeps
// every record and what runs (active contracts go on billing); it stops
// new contracts. Asking for the state the property is in changes nothing.
func (s *Service) SetArchived(ctx context.Context, prop *Property, archived bool) (*Property, error) {
	if prop.Archived() == archived {
		return prop, nil
	}
	before := toJSON(prop)
	now := s.now()
	prop.ArchivedAt, prop.UpdatedAt = nil, now
	action := activity.Unarchived
	if archived {
		prop.ArchivedAt = &now
		action = activity.Archived
	}
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if !archived {
			if err := s.adding(ctx, tx, prop.WorkspaceID); err != nil {
				return err
			}
		}
		if err := s.store.setArchived(ctx, tx, prop); err != nil {
			return err
		}
		return s.record(ctx, tx, action, prop, before, toJSON(prop))
	})
	if err != nil {
		return nil, err
	}
	return prop, nil
}

// adding asks every Limit whether the workspace may have one more active
// property.
func (s *Service) adding(ctx context.Context, tx bun.Tx, workspaceID int64) error {
	for _, l := range s.limits {
		if err := l.PropertyAdding(ctx, tx, workspaceID); err != nil {
			return err
		}
	}
	return nil
}

// ErrArchived is the 409 a module answers when a record cannot be added to
// an archived property.
func ErrArchived() error {
	return fault.Conflict("property_archived", "property_id: the property is archived; unarchive it first.")
}

// Delete removes the property with the raw id, after every Dependent has
// agreed and removed its records, all in one transaction.
func (s *Service) Delete(ctx context.Context, p auth.Principal, rawID string) error {
	prop, err := s.Authorize(ctx, p, rawID)
	if err != nil {
		return err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.lockForDelete(ctx, tx, prop.ID); err != nil {
			return err
		}
		for _, d := range s.dependents {
			if err := d.PropertyDeleting(ctx, tx, prop.ID); err != nil {
				return err
			}
		}
		if err := s.store.delete(ctx, tx, prop.ID); err != nil {
			return err
		}
		return s.record(ctx, tx, activity.Deleted, prop, toJSON(prop), nil)
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return fault.NotFound("Property not found.")
	case database.IsForeignKeyViolation(err):
		// A record that no Dependent knows of (its module may be disabled)
		// still refers to the property; the schema keeps it.
		return fault.Conflict("has_dependents", "Records under this property prevent its deletion.")
	}
	return err
}

// record logs a write of prop in its workspace's activity, in tx.
func (s *Service) record(ctx context.Context, tx bun.Tx, action string, prop *Property, before, after any) error {
	return activity.Record(ctx, tx, activity.Entry{
		Action: action, RecordType: "property", RecordID: prop.ID.String(), WorkspaceID: prop.WorkspaceID,
		Changes: activity.Diff(before, after),
	})
}

// apply checks in against the reference data and copies it onto prop. A new
// country without an explicit currency brings the country's currency.
func (s *Service) apply(prop *Property, in Input) error {
	var details []string
	if in.Name != nil {
		prop.Name = *in.Name
	}
	if in.Address != nil {
		prop.Address = *in.Address
	}
	if in.City != nil {
		prop.City = *in.City
	}
	if in.PostalCode != nil {
		prop.PostalCode = *in.PostalCode
	}
	if in.CountryCode != nil {
		c, ok := s.countries.Country(*in.CountryCode)
		if !ok {
			details = append(details, "country_code: must be the code of an active country (GET /api/v1/countries)")
		} else {
			if c.Code != prop.CountryCode && in.Currency == nil {
				prop.Currency = c.Currency
			}
			prop.CountryCode = c.Code
		}
	}
	if in.Currency != nil {
		code, err := CurrencyCode(*in.Currency)
		if err != nil {
			details = append(details, "currency: "+err.Error())
		} else {
			prop.Currency = code
		}
	}
	if in.LivingArea != nil {
		if string(bytes.TrimSpace(in.LivingArea)) == "null" {
			prop.LivingAreaCenti = nil
		} else if a, err := money.Parse(in.LivingArea); err != nil || a <= 0 || a > MaxLivingArea*100 {
			details = append(details, "living_area: must be a number of square metres with at most 2 decimals, more than 0 and at most 100000")
		} else {
			n := int64(a)
			prop.LivingAreaCenti = &n
		}
	}
	if len(details) > 0 {
		return fault.Validation(details...)
	}
	return nil
}

// CurrencyCode returns the ISO 4217 code s names (any case), or an error
// worded for a client.
func CurrencyCode(s string) (string, error) {
	if len(s) != 3 {
		return "", errors.New("must be an ISO 4217 currency code such as EUR")
	}
	u, err := currency.ParseISO(strings.ToUpper(s))
	if err != nil {
		return "", errors.New("must be an ISO 4217 currency code such as EUR")
	}
	return u.String(), nil
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time {
	return s.clock.Now().UTC().Truncate(time.Microsecond)
}

// activePage is how many properties EachActive reads at once.
const activePage = 500

// EachActive calls fn with every active property of the workspace, by id,
// reading them a page at a time; it stops at the first error of fn or when
// ctx ends. The daily runs (billing, late fees) go through a portfolio so.
func (s *Service) EachActive(ctx context.Context, workspaceID int64, fn func(*Property) error) error {
	for after := uuid.Nil; ; {
		page, err := s.store.Active(ctx, workspaceID, after, activePage)
		if err != nil {
			return err
		}
		for i := range page {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(&page[i]); err != nil {
				return err
			}
		}
		if len(page) < activePage {
			return nil
		}
		after = page[len(page)-1].ID
	}
}
