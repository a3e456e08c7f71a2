package calendar

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/opcosts"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Config is the section modules.calendar.
type Config struct {
	// FeedPast and FeedAhead are how many days before and after today the
	// feed's derived events reach (stored events are all in it).
	FeedPast  int `koanf:"feedpast"`
	FeedAhead int `koanf:"feedahead"`
	// RemindEvery is how often the reminder job looks for reminders due;
	// RemindLookback how late it may send one (older ones are skipped).
	RemindEvery    time.Duration `koanf:"remindevery"`
	RemindLookback time.Duration `koanf:"remindlookback"`
	// PublicURL is http.publicurl: feed links are absolute under it, and
	// the API path alone while it is unset.
	PublicURL string `koanf:"-"`
}

// NewConfig reads modules.calendar with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{FeedPast: 31, FeedAhead: 335, RemindEvery: time.Minute, RemindLookback: 6 * time.Hour}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	c.PublicURL = cfg.HTTP.PublicURL
	switch {
	case c.FeedPast < 0 || c.FeedPast > 366:
		return Config{}, &config.Error{Key: "modules.calendar.feedpast", Reason: "must be from 0 to 366 days"}
	case c.FeedAhead < 1 || c.FeedAhead > 732:
		return Config{}, &config.Error{Key: "modules.calendar.feedahead", Reason: "must be from 1 to 732 days"}
	case c.RemindEvery < time.Second || c.RemindEvery > time.Hour:
		return Config{}, &config.Error{Key: "modules.calendar.remindevery", Reason: "must be from 1s to 1h"}
	case c.RemindLookback < c.RemindEvery || c.RemindLookback > 7*24*time.Hour:
		return Config{}, &config.Error{Key: "modules.calendar.remindlookback", Reason: "must be from remindevery to 168h"}
	}
	return c, nil
}

// Service keeps the stored events and answers windows and feeds.
type Service struct {
	db       *bun.DB
	clock    clock.Clock
	log      *slog.Logger
	cfg      Config
	messages *messages.Service
	dicts    *translations.Dictionaries
	// opcosts is nil when the opcosts module is off: no statement
	// deadlines then.
	opcosts *opcosts.Service
}

// ServiceParams are the service's dependencies.
type ServiceParams struct {
	fx.In

	DB       *bun.DB
	Clock    clock.Clock
	Log      *slog.Logger
	Config   Config
	Messages *messages.Service
	Dicts    *translations.Dictionaries
	Opcosts  *opcosts.Service `optional:"true"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, clock: p.Clock, log: p.Log, cfg: p.Config, messages: p.Messages, dicts: p.Dicts, opcosts: p.Opcosts}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func errNotFound() error { return fault.NotFound("Calendar event not found.") }

// Authorize returns the stored event with the raw id when p's workspace
// holds it; 404 otherwise (another workspace's event included).
func (s *Service) Authorize(ctx context.Context, p auth.Principal, rawID string) (*Event, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNotFound()
	}
	e, err := eventOfWorkspace(ctx, s.db, p.WorkspaceID, id)
	if err == nil && e == nil {
		return nil, errNotFound()
	}
	return e, err
}

// checkRefs checks, through db, that the property, contract and attendees
// of d are the workspace's, and takes the property from the contract when
// only the contract is given.
func (s *Service) checkRefs(ctx context.Context, db bun.IDB, workspaceID int64, d *draft) error {
	var details []string
	if d.ContractID != nil {
		c, err := contracts.OfWorkspace(ctx, db, workspaceID, *d.ContractID)
		switch {
		case err != nil:
			return err
		case c == nil:
			details = append(details, "contract_id: no such contract in this workspace")
		case d.PropertyID == nil:
			p := c.PropertyID
			d.PropertyID = &p
		case *d.PropertyID != c.PropertyID:
			details = append(details, "contract_id: is a contract of another property than property_id")
		}
	}
	if d.PropertyID != nil {
		ok, err := properties.InWorkspace(ctx, db, workspaceID, *d.PropertyID)
		if err != nil {
			return err
		}
		if !ok {
			details = append(details, "property_id: no such property in this workspace")
		}
	}
	if len(d.attendees) > 0 {
		found, err := contragents.InWorkspace(ctx, db, workspaceID, d.attendees)
		if err != nil {
			return err
		}
		have := map[uuid.UUID]bool{}
		for _, id := range found {
			have[id] = true
		}
		for i, id := range d.attendees {
			if !have[id] {
				details = append(details, fmt.Sprintf("attendees[%d]: no such contragent in this workspace", i))
			}
		}
	}
	if len(details) > 0 {
		return fault.Validation(details...)
	}
	return nil
}

// fill writes d's lists into its row.
func (d *draft) fill() {
	enc := func(v any, empty string) string {
		b, err := json.Marshal(v)
		if err != nil || string(b) == "null" {
			return empty
		}
		return string(b)
	}
	att := make([]string, len(d.attendees))
	for i, a := range d.attendees {
		att[i] = a.String()
	}
	d.ExDates = enc(d.exdates, "[]")
	d.Overrides = enc(d.overrides, "[]")
	d.Attendees = enc(att, "[]")
	d.Reminders = enc(d.reminders, "[]")
}

// Create stores the event r describes in p's workspace.
func (s *Service) Create(ctx context.Context, p auth.Principal, r eventRequest) (*Event, error) {
	d, err := build(r)
	if err != nil {
		return nil, err
	}
	d.fill()
	e := &d.Event
	if e.ID, err = uuid.NewV7(); err != nil {
		return nil, fmt.Errorf("event id: %w", err)
	}
	now := s.now()
	e.WorkspaceID, e.CreatedAt, e.UpdatedAt = p.WorkspaceID, now, now
	if p.UserID != 0 {
		uid := p.UserID
		e.CreatedBy = &uid
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.checkRefs(ctx, tx, p.WorkspaceID, d); err != nil {
			return err
		}
		if err := insertEvent(ctx, tx, e); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "calendar_event",
			RecordID: e.ID.String(), Changes: activity.Diff(nil, toJSON(e))})
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Update changes the fields r sends and raises the event's SEQUENCE.
func (s *Service) Update(ctx context.Context, p auth.Principal, old *Event, r eventRequest) (*Event, error) {
	base, err := current(old)
	if err != nil {
		return nil, err
	}
	d, err := build(merge(base, r))
	if err != nil {
		return nil, err
	}
	d.fill()
	e := &d.Event
	e.ID, e.WorkspaceID, e.CreatedBy, e.CreatedAt = old.ID, old.WorkspaceID, old.CreatedBy, old.CreatedAt
	e.UpdatedAt = s.now()
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.checkRefs(ctx, tx, p.WorkspaceID, d); err != nil {
			return err
		}
		switch found, err := updateEvent(ctx, tx, e); {
		case err != nil:
			return err
		case !found:
			return errNotFound()
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "calendar_event",
			RecordID: e.ID.String(), Changes: activity.Diff(toJSON(old), toJSON(e))})
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Delete removes the event.
func (s *Service) Delete(ctx context.Context, e *Event) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := deleteEvent(ctx, tx, e); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Deleted, RecordType: "calendar_event",
			RecordID: e.ID.String(), Changes: activity.Diff(toJSON(e), nil)})
	})
}

// ListFilter narrows the list of stored events.
type ListFilter struct {
	PropertyID, ContractID, Kind string
}

// List returns one page of the workspace's stored events, oldest first.
func (s *Service) List(ctx context.Context, p auth.Principal, f ListFilter, q listing.Query) ([]Event, listing.Result, error) {
	return listEvents(ctx, s.db, p.WorkspaceID, f, q)
}

// WindowQuery is a GET /calendar-events?from&to.
type WindowQuery struct {
	From, To   period.Date
	Loc        *time.Location
	PropertyID *uuid.UUID
	ContractID *uuid.UUID
	Kinds      map[string]bool
	// Locale is the reader's language, which the derived events speak.
	Locale string
}

func errWindowTooLong() error {
	return fault.New(fault.KindUnprocessable, "window_too_long",
		fmt.Sprintf("A window may span at most %d days (from and to included).", maxWindowDays))
}

// Window returns every occurrence of the workspace's stored events and
// every derived event on the days q names, sorted by start, then id.
func (s *Service) Window(ctx context.Context, workspaceID int64, q WindowQuery) ([]Occurrence, error) {
	w := newWindow(q.From.Time(), q.To.Time(), q.Loc)
	stored, err := s.stored(ctx, s.db, workspaceID, w.start.Add(-24*time.Hour), w.end.Add(24*time.Hour), q)
	if err != nil {
		return nil, err
	}
	budget := maxWindowOccurrences
	var out []Occurrence
	for i := range stored {
		sc, err := newSchedule(&stored[i])
		if err != nil {
			return nil, err
		}
		if out, err = sc.expand(w, out, &budget); err != nil {
			if errors.Is(err, errCapped) {
				return nil, errTooMany(fmt.Sprintf("The window holds more than %d occurrences; ask for a shorter one or filter it.", maxWindowOccurrences))
			}
			return nil, err
		}
	}
	dkinds := map[string]bool{}
	anyDerived := len(q.Kinds) == 0
	for k := range q.Kinds {
		for _, d := range DerivedKinds {
			if k == d {
				dkinds[k] = true
				anyDerived = true
			}
		}
	}
	if anyDerived {
		d, err := derived(ctx, s.db, s.opcosts, workspaceID, q.From, q.To, contracts.DatedFilter{PropertyID: q.PropertyID, ContractID: q.ContractID}, dkinds,
			wordsOf(s.dicts, q.Locale))
		if err != nil {
			return nil, err
		}
		out = append(out, d...)
	}
	sortOccurrences(out, q.Loc)
	return out, nil
}

// stored reads the workspace's events that can have an occurrence between
// from and to (instants, with a day's margin for all-day events).
func (s *Service) stored(ctx context.Context, db bun.IDB, workspaceID int64, from, to time.Time, q WindowQuery) ([]Event, error) {
	return eventsBetween(ctx, db, workspaceID, from, to, q)
}

// tokenBytes is the entropy of a feed token (base64url: 43 characters).
const tokenBytes = 32

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// RotateFeedToken makes a new feed token for p in its workspace; the old
// one stops working at once (its hash is replaced in the same row).
func (s *Service) RotateFeedToken(ctx context.Context, p auth.Principal) (string, error) {
	raw := make([]byte, tokenBytes)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("feed token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	row := &FeedToken{WorkspaceID: p.WorkspaceID, UserID: p.UserID, TokenHash: hashToken(token), CreatedAt: s.now()}
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := saveFeedToken(ctx, tx, row); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "calendar_feed_token",
			RecordID: fmt.Sprint(p.UserID)})
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// feedOwner returns the workspace of a feed token whose member still
// belongs to it, and the member's language; false for any other token.
// FeedOwner is the workspace and locale of the feed token, ok false for a
// token that opens no feed.
func (s *Service) FeedOwner(ctx context.Context, token string) (int64, string, bool, error) {
	return s.feedOwner(ctx, token)
}

func (s *Service) feedOwner(ctx context.Context, token string) (int64, string, bool, error) {
	if len(token) != 43 {
		return 0, "", false, nil
	}
	if _, err := base64.RawURLEncoding.DecodeString(token); err != nil {
		return 0, "", false, nil
	}
	return feedTokenOwner(ctx, s.db, hashToken(token))
}

// FeedURL is the absolute address of the feed a token opens, under the
// public URL.
func (s *Service) FeedURL(token string) string {
	return s.cfg.PublicURL + "/api/v1/calendar/feed/" + token + ".ics"
}
