package proposals

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
	"github.com/propman/propman/platform/ratelimit"
)

// Bounds of a proposal's fields.
const (
	MaxTitleLen       = 200
	MaxDescriptionLen = 4000
	MaxPhotos         = 20
	MaxDepositMonths  = 12
	MaxTermMonths     = 120
)

// Config is the section modules.proposals.
type Config struct {
	// CacheTTL is how long an instance serves a public page from memory
	// before reading it again: the longest another instance may show a
	// page after its proposal changed or closed.
	CacheTTL time.Duration `koanf:"cachettl"`
	// MaxAge is the Cache-Control max-age of the public page.
	MaxAge time.Duration `koanf:"maxage"`
	// IPPerHour, EmailPerHour and ProposalPerHour bound applications (the
	// per-IP one only while ratelimit.enabled).
	IPPerHour       int `koanf:"ipperhour"`
	EmailPerHour    int `koanf:"emailperhour"`
	ProposalPerHour int `koanf:"proposalperhour"`
	// Sweep is how often unconfirmed applications whose code expired are
	// deleted.
	Sweep time.Duration `koanf:"sweep"`
}

// NewConfig reads modules.proposals with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{CacheTTL: 10 * time.Second, MaxAge: time.Minute, IPPerHour: 10, EmailPerHour: 3, ProposalPerHour: 300, Sweep: time.Hour}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	switch {
	case c.CacheTTL < 0 || c.CacheTTL > time.Hour:
		return Config{}, &config.Error{Key: "modules.proposals.cachettl", Reason: "must be from 0 to 1h"}
	case c.MaxAge < 0 || c.MaxAge > 24*time.Hour:
		return Config{}, &config.Error{Key: "modules.proposals.maxage", Reason: "must be from 0 to 24h"}
	case c.Sweep < 10*time.Millisecond:
		return Config{}, &config.Error{Key: "modules.proposals.sweep", Reason: "must be at least 10ms"}
	case c.IPPerHour < 1 || c.EmailPerHour < 1 || c.ProposalPerHour < 1:
		return Config{}, &config.Error{Key: "modules.proposals.ipperhour", Reason: "every per-hour limit must be at least 1"}
	}
	return c, nil
}

// Service holds the rules of proposals and applications.
type Service struct {
	db        *bun.DB
	store     *Store
	clock     clock.Clock
	props     *properties.Service
	contracts *contracts.Service
	files     *documents.Files
	dir       *reference.Directory
	limiter   *ratelimit.Limiter
	mailer    mail.Mailer
	queue     *jobs.Queue
	log       *slog.Logger
	cfg       Config
	perIP     bool
	codeKey   []byte
	pages     *pageCache
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB        *bun.DB
	Clock     clock.Clock
	Props     *properties.Service
	Contracts *contracts.Service
	Files     *documents.Files
	Directory *reference.Directory
	Mailer    mail.Mailer
	Queue     *jobs.Queue
	Tokens    *auth.Tokens
	Log       *slog.Logger
	Config    *config.Config
	Own       Config
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{
		db: p.DB, store: NewStore(p.DB), clock: p.Clock, props: p.Props, contracts: p.Contracts, files: p.Files,
		dir: p.Directory, limiter: ratelimit.New(p.DB, p.Clock), mailer: p.Mailer, queue: p.Queue, log: p.Log,
		cfg: p.Own, perIP: p.Config.RateLimit.Enabled,
		codeKey: p.Tokens.DeriveKey("propman/proposals/application-code/v1"),
		pages:   newPageCache(p.Own.CacheTTL),
	}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func errNotFound() error { return fault.NotFound("Proposal not found.") }

func errState(code, msg string) error { return fault.Conflict(code, msg) }

// Property returns the property of the route when p may act on it (403 for
// another workspace's, as its own routes answer).
func (s *Service) Property(ctx context.Context, p auth.Principal, rawID string) (*properties.Property, error) {
	return s.props.Authorize(ctx, p, rawID)
}

// proposal returns the property's proposal with the raw id (404 when the
// id is not a UUID or not the property's).
// Proposal returns the proposal with the raw id under prop.
func (s *Service) Proposal(ctx context.Context, prop *properties.Property, rawID string) (*Proposal, error) {
	return s.proposal(ctx, s.db, prop, rawID, false)
}

func (s *Service) proposal(ctx context.Context, db bun.IDB, prop *properties.Property, rawID string, lock bool) (*Proposal, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNotFound()
	}
	pr, err := s.store.proposal(ctx, db, prop.ID, id, lock)
	if errors.Is(err, errNoRow) {
		return nil, errNotFound()
	}
	return pr, err
}

// Input is a proposal's editable fields as received; nil leaves a field
// as it is (an update), Create needs title, rent and available_from.
type Input struct {
	Title         *string          `json:"title"`
	Description   *string          `json:"description" validate:"multiline"`
	Rent          *json.RawMessage `json:"rent"`
	DepositMonths *int             `json:"deposit_months"`
	AvailableFrom *json.RawMessage `json:"available_from"`
	MinTermMonths *int             `json:"min_term_months"`
	Terms         *[]termInput     `json:"terms" validate:"multiline"`
	Photos        *[]string        `json:"photos"`
}

type termInput struct {
	Code  string          `json:"code"`
	Value json.RawMessage `json:"value"`
}

// apply checks in and copies it onto pr; one message per problem. It
// reads through db: the caller's transaction when it holds one.
func (s *Service) apply(ctx context.Context, db bun.IDB, prop *properties.Property, pr *Proposal, in *Input, creating bool) ([]string, error) {
	var details []string
	fail := func(msg string) { details = append(details, msg) }
	if creating {
		for _, f := range []struct {
			name  string
			given bool
		}{{"title", in.Title != nil}, {"rent", in.Rent != nil}, {"available_from", in.AvailableFrom != nil}} {
			if !f.given {
				fail(f.name + ": is required")
			}
		}
	}
	if in.Title != nil {
		t := strings.TrimSpace(*in.Title)
		if n := utf8.RuneCountInString(t); n < 1 || n > MaxTitleLen {
			fail(fmt.Sprintf("title: must be 1 to %d characters", MaxTitleLen))
		}
		pr.Title = t
	}
	if in.Description != nil {
		d := strings.TrimSpace(*in.Description)
		if utf8.RuneCountInString(d) > MaxDescriptionLen {
			fail(fmt.Sprintf("description: must be at most %d characters", MaxDescriptionLen))
		}
		pr.Description = d
	}
	if in.Rent != nil {
		a, err := money.Parse(*in.Rent)
		if err != nil || a <= 0 || a > money.Amount(1_000_000_00) {
			fail("rent: must be an amount above 0 and at most 1000000 with at most 2 decimals")
		}
		pr.RentMinor = int64(a)
	}
	if in.DepositMonths != nil {
		if *in.DepositMonths < 0 || *in.DepositMonths > MaxDepositMonths {
			fail(fmt.Sprintf("deposit_months: must be from 0 to %d", MaxDepositMonths))
		}
		pr.DepositMonths = *in.DepositMonths
	}
	if in.AvailableFrom != nil {
		d, err := period.ParseJSON(*in.AvailableFrom)
		if err != nil {
			fail("available_from: must be a date YYYY-MM-DD")
		}
		pr.AvailableFrom = d
	}
	if in.MinTermMonths != nil {
		if *in.MinTermMonths < 0 || *in.MinTermMonths > MaxTermMonths {
			fail(fmt.Sprintf("min_term_months: must be from 0 to %d", MaxTermMonths))
		}
		pr.MinTermMonths = *in.MinTermMonths
	}
	if in.Terms != nil {
		raw := make([]contracts.Term, len(*in.Terms))
		for i, t := range *in.Terms {
			raw[i] = contracts.Term{Code: t.Code, Value: t.Value}
		}
		terms, more, err := s.contracts.CheckTerms(ctx, db, raw, prop.CountryCode)
		if err != nil {
			return nil, err
		}
		details = append(details, more...)
		b, _ := json.Marshal(terms)
		if terms == nil {
			b = []byte("[]")
		}
		pr.Terms = string(b)
	}
	if in.Photos != nil {
		ps := *in.Photos
		if len(ps) > MaxPhotos {
			fail(fmt.Sprintf("photos: at most %d documents", MaxPhotos))
			ps = nil
		}
		ids := make([]uuid.UUID, 0, len(ps))
		seen := map[uuid.UUID]bool{}
		for i, raw := range ps {
			id, err := uuid.Parse(raw)
			if err != nil || len(raw) != 36 {
				fail(fmt.Sprintf("photos[%d]: must be a document id", i))
				continue
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		found, err := s.files.OfProperty(ctx, db, prop.ID, ids)
		if err != nil {
			return nil, err
		}
		if len(found) != len(ids) {
			fail("photos: every id must be a document of this property")
		}
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = id.String()
		}
		b, _ := json.Marshal(out)
		pr.Photos = string(b)
	}
	return details, nil
}

// newSlug is 12 characters of an alphabet without look-alikes, from
// crypto/rand: 60 bits, so slugs cannot be guessed or walked.
func newSlug() (string, error) {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("slug: %w", err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b), nil
}

// List returns a page of the property's proposals.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Proposal, listing.Result, error) {
	return s.store.list(ctx, prop.ID, q)
}

// Create adds a draft proposal for prop.
func (s *Service) Create(ctx context.Context, prop *properties.Property, in *Input) (*Proposal, error) {
	if prop.Archived() {
		return nil, properties.ErrArchived()
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("proposal id: %w", err)
	}
	slug, err := newSlug()
	if err != nil {
		return nil, err
	}
	now := s.now()
	pr := &Proposal{ID: id, WorkspaceID: prop.WorkspaceID, OwnerID: prop.OwnerID, PropertyID: prop.ID, Slug: slug,
		Status: Draft, Currency: prop.Currency, Terms: "[]", Photos: "[]", CreatedAt: now, UpdatedAt: now}
	details, err := s.apply(ctx, s.db, prop, pr, in, true)
	if err != nil {
		return nil, err
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.insertProposal(ctx, tx, pr); err != nil {
			return err
		}
		return s.record(ctx, tx, activity.Created, pr, nil)
	})
	if err != nil {
		return nil, err
	}
	return pr, nil
}

// Update changes the given fields of a draft proposal.
func (s *Service) Update(ctx context.Context, prop *properties.Property, rawID string, in *Input) (*Proposal, error) {
	var out *Proposal
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		pr, err := s.proposal(ctx, tx, prop, rawID, true)
		if err != nil {
			return err
		}
		if pr.Status != Draft {
			return errState("not_draft", "Only a draft proposal can be changed; close it and make a new one.")
		}
		before := proposalView(pr)
		details, err := s.apply(ctx, tx, prop, pr, in, false)
		if err != nil {
			return err
		}
		if len(details) > 0 {
			return fault.Validation(details...)
		}
		pr.UpdatedAt = s.now()
		if err := s.store.updateProposal(ctx, tx, pr); err != nil {
			return err
		}
		out = pr
		return s.record(ctx, tx, activity.Updated, pr, before)
	})
	return out, err
}

// Transition moves a proposal draft -> published or published -> closed.
func (s *Service) Transition(ctx context.Context, prop *properties.Property, rawID, to string) (*Proposal, error) {
	var out *Proposal
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		pr, err := s.proposal(ctx, tx, prop, rawID, true)
		if err != nil {
			return err
		}
		before := proposalView(pr)
		now := s.now()
		switch {
		case to == Published && pr.Status == Draft:
			if prop.Archived() {
				return properties.ErrArchived()
			}
			pr.PublishedAt = &now
		case to == Closed && pr.Status == Published:
			pr.ClosedAt = &now
		case to == Published:
			return errState("not_draft", "Only a draft proposal can be published.")
		default:
			return errState("not_published", "Only a published proposal can be closed.")
		}
		pr.Status, pr.UpdatedAt = to, now
		if err := s.store.updateProposal(ctx, tx, pr); err != nil {
			return err
		}
		out = pr
		return s.record(ctx, tx, activity.Updated, pr, before)
	})
	if err != nil {
		return nil, err
	}
	s.pages.forget(out.Slug)
	return out, nil
}

// updatable are the columns an update writes (the keys never change).
var updatable = []string{"status", "title", "description", "rent_minor", "deposit_months", "available_from",
	"min_term_months", "terms", "photos", "published_at", "closed_at", "updated_at"}

func (s *Service) record(ctx context.Context, tx bun.Tx, action string, pr *Proposal, before any) error {
	return activity.Record(ctx, tx, activity.Entry{Action: action, RecordType: "proposal", RecordID: pr.ID.String(),
		WorkspaceID: pr.WorkspaceID, Changes: activity.Diff(before, proposalView(pr))})
}
