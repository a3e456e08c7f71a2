package workspaces

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
)

// Service holds the rules of workspaces and members. It is the guard's
// auth.Workspaces.
type Service struct {
	db    *bun.DB
	store *Store
	clock clock.Clock
}

// NewService returns the service.
func NewService(db *bun.DB, store *Store, clk clock.Clock) *Service {
	return &Service{db: db, store: store, clock: clk}
}

// AsGuardWorkspaces gives the service to the token guard.
func AsGuardWorkspaces(s *Service) auth.Workspaces { return s }

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// Membership is the guard's lookup: the user's role in the workspace with
// id, or in their default workspace when id is 0. A user without any
// workspace (registered since the migration) gets their own here, on
// their first request that needs one.
func (s *Service) Membership(ctx context.Context, userID, id int64) (auth.Membership, error) {
	m, err := s.store.Membership(ctx, userID, id)
	if errors.Is(err, ErrNotFound) && id == 0 {
		// Read again whether this request made it or a concurrent first
		// request of the same user did (its insert won; this one's did
		// nothing once that one committed).
		if _, cerr := s.store.CreateOwn(ctx, userID, s.now()); cerr != nil {
			return auth.Membership{}, cerr
		}
		m, err = s.store.Membership(ctx, userID, 0)
	}
	if errors.Is(err, ErrNotFound) {
		return auth.Membership{}, s.notMember(ctx, userID, id)
	}
	if err != nil {
		return auth.Membership{}, err
	}
	role, _ := auth.ParseRole(m.Role)
	return auth.Membership{WorkspaceID: m.WorkspaceID, Role: role, Landlord: m.LandlordID}, nil
}

// IsTenant reports whether the user is a linked tenant of any workspace:
// auth.Refuse asks it before it refuses a record of another workspace.
func (s *Service) IsTenant(ctx context.Context, userID int64) (bool, error) {
	return s.store.IsTenant(ctx, userID)
}

// MembershipQuery is Membership's read as SQL for a list's statement to
// carry (auth.Deferred). Without a workspace id it reads the default
// membership alone; a user without one (no workspace yet: the guard's
// lookup makes their own; or removed from their default) gets no row, and
// the guard's lookup answers.
func (s *Service) MembershipQuery(userID, id int64) (string, []any) {
	if id > 0 {
		return membershipOf, []any{param(userID), param(id)}
	}
	return membershipDefault, []any{param(userID)}
}

// Default returns the id of the workspace a request of the user without
// X-Workspace-ID acts in (made on first use, as Membership does); 0 when
// the user belongs to none.
func (s *Service) Default(ctx context.Context, userID int64) (int64, error) {
	m, err := s.Membership(ctx, userID, 0)
	if errors.Is(err, auth.ErrNotMember) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return m.WorkspaceID, nil
}

// SetDefault makes the workspace with id the user's default: a 400
// naming field when the user is not a member of it.
func (s *Service) SetDefault(ctx context.Context, userID, id int64, field string) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		ok, err := s.store.SetDefault(ctx, tx, userID, id)
		if err != nil {
			return err
		}
		if !ok {
			return fault.Validation(field + ": must be the id of a workspace you are a member of (GET /api/v1/workspaces)")
		}
		return nil
	})
}

// Mine lists the user's workspaces.
func (s *Service) Mine(ctx context.Context, userID int64) ([]Mine, error) {
	return s.store.Mine(ctx, userID)
}

// Current returns the workspace the guard admitted p to.
func (s *Service) Current(ctx context.Context, p auth.Principal) (*Workspace, error) {
	w, err := s.store.ByID(ctx, s.db, p.WorkspaceID)
	if errors.Is(err, ErrNotFound) {
		return nil, errNoWorkspace()
	}
	return w, err
}

func errNoWorkspace() error { return fault.NotFound("Workspace not found.") }
func errNoMember() error    { return fault.NotFound("No member of this workspace has this id.") }

// LastOwner is the 409 of a change that would leave a workspace without an
// owner.
func LastOwner() *fault.Error {
	return fault.Conflict("last_owner", "A workspace keeps at least one owner: make another member owner first.")
}

// Update is what an owner may change of a workspace: each field nil to
// leave it as it is.
type Update struct {
	Name     *string
	TimeZone *string
	// Schedule sets the local time ("HH:MM") or "off" of each kind named;
	// nil for a kind puts it back to its default time.
	Schedule map[string]*string
}

// maxTimeZone bounds a time zone's name (the longest IANA name has 32).
const maxTimeZone = 64

// Update changes p's workspace: the name (1 to 100 characters), the time
// zone (an IANA name) and the schedule of its periodic runs (kinds are
// those of this build). Every problem is reported in one 400 and nothing
// changes.
func (s *Service) Update(ctx context.Context, p auth.Principal, in Update, kinds []string) (*Workspace, error) {
	var problems []string
	var name, tz string
	if in.Name == nil && in.TimeZone == nil && in.Schedule == nil {
		return nil, fault.Validation("name: must be 1 to 100 characters")
	}
	if in.Name != nil {
		if name = strings.TrimSpace(*in.Name); name == "" || len([]rune(name)) > 100 {
			problems = append(problems, "name: must be 1 to 100 characters")
		}
	}
	if in.TimeZone != nil {
		tz = strings.TrimSpace(*in.TimeZone)
		if _, err := time.LoadLocation(tz); err != nil || tz == "" || len(tz) > maxTimeZone || strings.EqualFold(tz, "local") {
			problems = append(problems, "time_zone: must be an IANA time zone such as Europe/Berlin")
		}
	}
	known := map[string]bool{}
	for _, k := range kinds {
		known[k] = true
	}
	for kind, at := range in.Schedule {
		switch {
		case !known[kind]:
			problems = append(problems, fmt.Sprintf("schedule.%.32s: is not one of %s", kind, strings.Join(kinds, ", ")))
		case at != nil && !jobs.ValidClock(*at):
			problems = append(problems, fmt.Sprintf("schedule.%s: must be a local time HH:MM (00:00 to 23:59), \"off\" or null", kind))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, fault.Validation(problems...)
	}
	w, err := s.Current(ctx, p)
	if err != nil {
		return nil, err
	}
	changes := map[string]activity.Change{}
	if in.Name != nil && name != w.Name {
		changes["name"] = activity.Change{w.Name, name}
		w.Name = name
	}
	if in.TimeZone != nil && tz != w.TimeZone {
		changes["time_zone"] = activity.Change{w.TimeZone, tz}
		w.TimeZone = tz
	}
	if len(in.Schedule) > 0 {
		next := maps.Clone(w.Schedule)
		if next == nil {
			next = map[string]string{}
		}
		for kind, at := range in.Schedule {
			if at == nil {
				delete(next, kind)
			} else {
				next[kind] = *at
			}
		}
		if !maps.Equal(next, w.Schedule) {
			changes["schedule"] = activity.Change{w.Schedule, next}
			w.Schedule = next
		}
	}
	if len(changes) == 0 {
		return w, nil
	}
	w.UpdatedAt = s.now()
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.Update(ctx, tx, w); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "workspace",
			RecordID: strconv.FormatInt(w.ID, 10), WorkspaceID: w.ID, Changes: changes})
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// Members returns one page of the members of p's workspace.
func (s *Service) Members(ctx context.Context, p auth.Principal, q listing.Query) ([]MemberView, listing.Result, error) {
	return s.store.Members(ctx, p.WorkspaceID, q)
}

// Member returns one member of p's workspace.
func (s *Service) Member(ctx context.Context, p auth.Principal, userID int64) (*MemberView, error) {
	m, err := s.store.Member(ctx, s.db, p.WorkspaceID, userID)
	if errors.Is(err, ErrNotFound) {
		return nil, errNoMember()
	}
	return m, err
}

// ChangeRole gives a member of p's workspace another role; demoting the
// last owner is a 409 last_owner. The member's next request is checked
// against it, on any instance: nothing keeps roles.
func (s *Service) ChangeRole(ctx context.Context, p auth.Principal, userID int64, role string) (*MemberView, error) {
	if _, ok := auth.ParseRole(role); !ok {
		return nil, fault.Validation("role: must be one of owner, manager, accountant, viewer")
	}
	var out *MemberView
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.lockOwners(ctx, tx, p.WorkspaceID); err != nil {
			return err
		}
		m, err := s.store.Member(ctx, tx, p.WorkspaceID, userID)
		if errors.Is(err, ErrNotFound) {
			return errNoMember()
		}
		if err != nil {
			return err
		}
		if m.Role == "owner" && role != "owner" {
			if err := s.keepAnOwner(ctx, tx, p.WorkspaceID); err != nil {
				return err
			}
		}
		if m.Role != role {
			before := m.Role
			m.Role, m.UpdatedAt = role, s.now()
			if err := s.store.SetRole(ctx, tx, &m.Member); err != nil {
				return err
			}
			err := activity.Record(ctx, tx, activity.Entry{
				Action: "role_changed", RecordType: "member", RecordID: strconv.FormatInt(userID, 10), WorkspaceID: p.WorkspaceID,
				Changes: map[string]activity.Change{"role": {before, role}},
			})
			if err != nil {
				return err
			}
		}
		out = m
		return nil
	})
	return out, err
}

// keepAnOwner fails with last_owner unless the workspace has another owner.
func (s *Service) keepAnOwner(ctx context.Context, tx bun.Tx, workspaceID int64) error {
	n, err := s.store.Owners(ctx, tx, workspaceID)
	if err != nil {
		return err
	}
	if n <= 1 {
		return LastOwner()
	}
	return nil
}

// Remove takes a member out of p's workspace (p leaving it when userID is
// p's own); the last owner cannot go.
func (s *Service) Remove(ctx context.Context, p auth.Principal, userID int64) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.lockOwners(ctx, tx, p.WorkspaceID); err != nil {
			return err
		}
		m, err := s.store.Member(ctx, tx, p.WorkspaceID, userID)
		if errors.Is(err, ErrNotFound) {
			return errNoMember()
		}
		if err != nil {
			return err
		}
		if m.Role == "owner" {
			if err := s.keepAnOwner(ctx, tx, p.WorkspaceID); err != nil {
				return err
			}
		}
		if err := s.store.Remove(ctx, tx, p.WorkspaceID, userID); err != nil {
			return err
		}
		action := activity.Removed
		if userID == p.UserID {
			action = activity.Left
		}
		return activity.Record(ctx, tx, activity.Entry{
			Action: action, RecordType: "member", RecordID: strconv.FormatInt(userID, 10), WorkspaceID: p.WorkspaceID,
			Changes: map[string]activity.Change{"role": {m.Role, nil}},
		})
	})
}
