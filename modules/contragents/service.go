package contragents

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
)

// User is a module whose records refer to contragents (contracts name a
// tenant, payments a payer). The contragents module does not know those
// records; it asks every User, inside the transaction that deletes a
// contragent, whether the deletion may go on. A User refuses by returning
// an *fault.Error, normally fault.Conflict("in_use", ...).
type User interface {
	ContragentDeleting(ctx context.Context, tx bun.Tx, contragentID uuid.UUID) error
}

// ProvideUser registers a constructor of a User with fx (value group
// "contragent_users").
func ProvideUser(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(User)), fx.ResultTags(`group:"contragent_users"`)))
}

// Service holds the rules of contragents and the access check every route
// under /contragents/{contragentId} goes through.
type Service struct {
	db    *bun.DB
	store *Store
	clock clock.Clock
	users []User
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB    *bun.DB
	Store *Store
	Clock clock.Clock
	Users []User `group:"contragent_users"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: p.Store, clock: p.Clock, users: p.Users}
}

// Authorize returns the contragent with the raw id when p may see, change
// and use it: 404 not_found when the id is not a UUID or no contragent has
// it, 403 forbidden when it belongs to someone else and p is not an admin.
func (s *Service) Authorize(ctx context.Context, p auth.Principal, rawID string) (*Contragent, error) {
	return s.Get(ctx, &p, rawID)
}

// Get is Authorize with p's role still to be read on the route of one
// contragent (auth.Routes.Read): the contragent's statement reads it too
// (listing.ReadByID), and p is settled.
func (s *Service) Get(ctx context.Context, p *auth.Principal, rawID string) (*Contragent, error) {
	rec := new(Contragent)
	found, err := listing.ReadByID(ctx, s.db, rec, rawID, p)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fault.NotFound("Contragent not found.")
	}
	if rec.WorkspaceID != p.WorkspaceID && !p.IsAdmin() {
		return nil, auth.Refuse(ctx, *p, "This contragent belongs to another user.", "Contragent not found.")
	}
	return rec, nil
}

// ByID returns, through db (the pool, or the caller's transaction when it
// holds one), the contragent with id, or ErrNotFound, without an access
// check: other modules use it for a record their caller was authorized
// for (a payment's payer must then belong to the property's owner).
func (s *Service) ByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*Contragent, error) {
	return s.store.ByID(ctx, db, id)
}

// Names returns, through db, the names of the contragents with ids that
// exist, without an access check (as ByID): one statement for a batch.
func (s *Service) Names(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]string, error) {
	return s.store.names(ctx, db, ids)
}

// ListFilter narrows a list: Role and Kind match exactly, Search is a
// case-insensitive substring of the name or the email. Empty means any.
type ListFilter struct {
	Role   string
	Kind   string
	Search string
}

// List returns a page of p's own contragents and how many match. Admins too
// see their own here; they reach other users' contragents by id.
func (s *Service) List(ctx context.Context, p *auth.Principal, f ListFilter, q listing.Query) ([]Contragent, listing.Result, error) {
	return s.store.List(ctx, p, f, q)
}

// Create adds a contragent owned by p.
func (s *Service) Create(ctx context.Context, p auth.Principal, in Input) (*Contragent, error) {
	if details := in.normalize(true); len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	c, err := s.newContragent(p, in, s.now())
	if err != nil {
		return nil, err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.Insert(ctx, tx, []Contragent{*c}); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Created, c, nil, toJSON(c)))
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Update changes the given fields of c, which the caller got from
// Authorize. Fields left nil keep their value.
func (s *Service) Update(ctx context.Context, c *Contragent, in Input) (*Contragent, error) {
	if details := in.normalize(false); len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	before := *c
	before.Roles = slices.Clone(c.Roles)
	in.apply(c)
	if equal(&before, c) {
		return c, nil
	}
	c.UpdatedAt = s.now()
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.Update(ctx, tx, c); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Updated, c, toJSON(&before), toJSON(c)))
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Delete removes the contragent with the raw id after every User has
// agreed, in one transaction.
func (s *Service) Delete(ctx context.Context, p auth.Principal, rawID string) error {
	c, err := s.Authorize(ctx, p, rawID)
	if err != nil {
		return err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.lockForDelete(ctx, tx, c.ID); err != nil {
			return err
		}
		for _, u := range s.users {
			if err := u.ContragentDeleting(ctx, tx, c.ID); err != nil {
				return err
			}
		}
		if err := s.store.delete(ctx, tx, c.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Deleted, c, toJSON(c), nil))
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return fault.NotFound("Contragent not found.")
	case database.IsForeignKeyViolation(err):
		// A record no User knows of (its module may be disabled) still
		// refers to the contragent; the schema keeps it.
		return fault.Conflict("in_use", "Records refer to this contragent; it cannot be deleted.")
	}
	return err
}

// Import adds every row of a CSV file for p, all in one transaction, or
// none when any line is wrong (every bad line reported by number).
func (s *Service) Import(ctx context.Context, p auth.Principal, body []byte) (int, error) {
	rows, details := parseCSV(body)
	if len(details) > 0 {
		return 0, fault.Validation(details...)
	}
	now := s.now()
	list := make([]Contragent, 0, len(rows))
	for _, in := range rows {
		c, err := s.newContragent(p, in, now)
		if err != nil {
			return 0, err
		}
		list = append(list, *c)
	}
	// Each imported row is logged as its own record (action "imported"),
	// so the log of a contragent starts with its import.
	entries := make([]activity.Entry, len(list))
	for i := range list {
		entries[i] = entry(activity.Imported, &list[i], nil, toJSON(&list[i]))
	}
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.Insert(ctx, tx, list); err != nil {
			return err
		}
		return activity.RecordAll(ctx, tx, entries)
	})
	if err != nil {
		return 0, err
	}
	return len(list), nil
}

// newContragent builds a contragent from a normalized, complete input.
func (s *Service) newContragent(p auth.Principal, in Input, now time.Time) (*Contragent, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("contragent id: %w", err)
	}
	c := &Contragent{ID: id, WorkspaceID: p.WorkspaceID, OwnerID: p.Landlord, CreatedAt: now, UpdatedAt: now}
	in.apply(c)
	return c, nil
}

// entry is the activity log's line of a write of c.
func entry(action string, c *Contragent, before, after any) activity.Entry {
	return activity.Entry{
		Action: action, RecordType: "contragent", RecordID: c.ID.String(), WorkspaceID: c.WorkspaceID,
		Changes: activity.Diff(before, after),
	}
}

func equal(a, b *Contragent) bool {
	return a.Kind == b.Kind && slices.Equal(a.Roles, b.Roles) && a.Name == b.Name && a.Email == b.Email &&
		a.Phone == b.Phone && a.Address == b.Address && a.TaxID == b.TaxID && a.Notes == b.Notes
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time {
	return s.clock.Now().UTC().Truncate(time.Microsecond)
}

// CreateTx adds, in tx, a contragent of p's workspace with the rules of
// Create: another module making one as part of its own write (the
// negotiations module turns an applicant into a tenant) so that both
// commit or neither does.
func (s *Service) CreateTx(ctx context.Context, tx bun.Tx, p auth.Principal, in Input) (*Contragent, error) {
	if details := in.normalize(true); len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	c, err := s.newContragent(p, in, s.now())
	if err != nil {
		return nil, err
	}
	if err := s.store.Insert(ctx, tx, []Contragent{*c}); err != nil {
		return nil, err
	}
	if err := activity.Record(ctx, tx, entry(activity.Created, c, nil, toJSON(c))); err != nil {
		return nil, err
	}
	return c, nil
}
