package negotiations

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/proposals"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/mail"
)

// Bounds of a negotiation.
const (
	MaxMessageLen  = 2000
	MaxExpiresDays = 60
)

// Config is the section modules.negotiations.
type Config struct {
	// ExpiresDays is how long a negotiation stays open without agreement
	// unless the landlord says otherwise.
	ExpiresDays int `koanf:"expiresdays"`
	// Sweep is how often the expiry job runs.
	Sweep time.Duration `koanf:"sweep"`
	// LinkBase prefixes the applicant's link in mails (the web app's
	// address). Deprecated: unset, it is http.publicurl (localhost while
	// that is unset too).
	LinkBase string `koanf:"linkbase"`
}

// NewConfig reads modules.negotiations with its defaults.
func NewConfig(cfg *config.Config) (Config, error) {
	c := Config{ExpiresDays: 14, Sweep: 10 * time.Minute}
	if err := cfg.Module(Name, &c); err != nil {
		return Config{}, err
	}
	switch {
	case c.ExpiresDays < 1 || c.ExpiresDays > MaxExpiresDays:
		return Config{}, &config.Error{Key: "modules.negotiations.expiresdays", Reason: fmt.Sprintf("must be from 1 to %d", MaxExpiresDays)}
	case c.Sweep < 10*time.Millisecond:
		return Config{}, &config.Error{Key: "modules.negotiations.sweep", Reason: "must be at least 10ms"}
	}
	if c.LinkBase == "" {
		// The link opens the web app's page, which reads the public API.
		c.LinkBase, _ = cfg.HTTP.Link("")
	}
	c.LinkBase = strings.TrimRight(c.LinkBase, "/")
	return c, nil
}

// Service holds the rules of negotiations.
type Service struct {
	db        *bun.DB
	clock     clock.Clock
	props     *properties.Service
	proposals *proposals.Service
	contracts *contracts.Service
	tenants   *contragents.Service
	queue     *jobs.Queue
	mailer    mail.Mailer
	log       *slog.Logger
	cfg       Config
	linkKey   []byte
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB        *bun.DB
	Clock     clock.Clock
	Props     *properties.Service
	Proposals *proposals.Service
	Contracts *contracts.Service
	Tenants   *contragents.Service
	Queue     *jobs.Queue
	Mailer    mail.Mailer
	Tokens    *auth.Tokens
	Log       *slog.Logger
	Own       Config
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, clock: p.Clock, props: p.Props, proposals: p.Proposals, contracts: p.Contracts,
		tenants: p.Tenants, queue: p.Queue, mailer: p.Mailer, log: p.Log, cfg: p.Own,
		linkKey: p.Tokens.DeriveKey("propman/negotiations/applicant-link/v1")}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func errNotFound() error { return fault.NotFound("Negotiation not found.") }

func errStale(current int) error {
	return fault.Conflict("stale_round", fmt.Sprintf("The negotiation is at round %d; read it again and answer that round.", current))
}

func errNotOpen(status string) error {
	return fault.Conflict("not_open", "The negotiation is "+status+"; it takes no more offers.")
}

// Token is the applicant's link token: the negotiation id and its HMAC
// under a key derived from auth.secret. Nothing is stored, so the mail job
// can write the link again; it opens only this negotiation, and only
// while it is open for writing.
func (s *Service) Token(id uuid.UUID) string {
	return id.String() + "." + base64.RawURLEncoding.EncodeToString(s.mac(id))
}

func (s *Service) mac(id uuid.UUID) []byte {
	m := hmac.New(sha256.New, s.linkKey)
	m.Write(id[:])
	return m.Sum(nil)[:24]
}

// byToken checks an applicant's token: 404 for anything not made by Token.
// ByToken is the negotiation an applicant's token opens, or the 404 a
// wrong, used or expired token gets.
func (s *Service) ByToken(token string) (uuid.UUID, error) { return s.byToken(token) }

// Get returns the negotiation with the raw id under prop, with its rounds.
func (s *Service) Get(ctx context.Context, prop *properties.Property, rawID string) (*Negotiation, []Round, error) {
	n, err := s.Of(ctx, prop, rawID)
	if err != nil {
		return nil, nil, err
	}
	rs, err := rounds(ctx, s.db, n.ID)
	return n, rs, err
}

// Of returns the negotiation with the raw id under prop.
func (s *Service) Of(ctx context.Context, prop *properties.Property, rawID string) (*Negotiation, error) {
	return ofProperty(ctx, s.db, prop, rawID, false)
}

// Load returns the negotiation with id, with its rounds: what the
// applicant's token opens.
func (s *Service) Load(ctx context.Context, id uuid.UUID) (*Negotiation, []Round, error) {
	n, err := load(ctx, s.db, id, false)
	if err != nil {
		return nil, nil, err
	}
	rs, err := rounds(ctx, s.db, n.ID)
	return n, rs, err
}

// PropertyOf is the property of n, read as its workspace would.
func (s *Service) PropertyOf(ctx context.Context, n *Negotiation) (*properties.Property, error) {
	return s.props.Authorize(ctx, auth.InWorkspace(n.WorkspaceID, 0), n.PropertyID.String())
}

func (s *Service) byToken(token string) (uuid.UUID, error) {
	raw, sig, ok := strings.Cut(token, ".")
	if !ok || len(raw) != 36 || len(sig) != 32 {
		return uuid.Nil, errNotFound()
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return uuid.Nil, errNotFound()
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(id)) {
		return uuid.Nil, errNotFound()
	}
	return id, nil
}

// ofProperty reads the property's negotiation with the raw id.
func ofProperty(ctx context.Context, db bun.IDB, prop *properties.Property, rawID string, lock bool) (*Negotiation, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNotFound()
	}
	n, err := load(ctx, db, id, lock)
	if err != nil {
		return nil, err
	}
	if n.PropertyID != prop.ID {
		return nil, errNotFound()
	}
	return n, nil
}

// OfferInput is an offer as received.
type OfferInput struct {
	Round   *int         `json:"round"`
	Terms   *[]termInput `json:"terms" validate:"multiline"`
	Message *string      `json:"message" validate:"multiline"`
}

type termInput struct {
	Code  string          `json:"code"`
	Value json.RawMessage `json:"value"`
}

// checkOffer validates terms and message for a property in country.
func (s *Service) checkOffer(ctx context.Context, db bun.IDB, prop *properties.Property, terms *[]termInput, message *string) (string, string, error) {
	var details []string
	msg := ""
	if message != nil {
		msg = strings.TrimSpace(*message)
		if utf8.RuneCountInString(msg) > MaxMessageLen {
			details = append(details, fmt.Sprintf("message: must be at most %d characters", MaxMessageLen))
		}
	}
	if terms == nil {
		details = append(details, "terms: is required")
		return "", "", fault.Validation(details...)
	}
	raw := make([]contracts.Term, len(*terms))
	for i, t := range *terms {
		raw[i] = contracts.Term{Code: t.Code, Value: t.Value}
	}
	normal, more, err := s.contracts.CheckTerms(ctx, db, raw, prop.CountryCode)
	if err != nil {
		return "", "", err
	}
	details = append(details, more...)
	if len(details) > 0 {
		return "", "", fault.Validation(details...)
	}
	if normal == nil {
		normal = []contracts.Term{}
	}
	b, _ := json.Marshal(normal)
	return string(b), msg, nil
}

// OpenInput is the body of POST /properties/{id}/negotiations.
type OpenInput struct {
	ApplicationID *string      `json:"application_id"`
	Terms         *[]termInput `json:"terms" validate:"multiline"`
	Message       *string      `json:"message" validate:"multiline"`
	ExpiresInDays *int         `json:"expires_in_days"`
}

// defaultTerms are the proposal's terms with its rent, deposit months and
// a start on the later of its availability and the applicant's wish: the
// first offer when the landlord names none.
func defaultTerms(pr *proposals.Proposal, a *proposals.Application) []termInput {
	out := []termInput{}
	set := map[string]bool{}
	for _, t := range pr.TermList() {
		out = append(out, termInput{Code: t.Code, Value: t.Value})
		set[strings.ToUpper(t.Code)] = true
	}
	add := func(code string, v any) {
		if !set[code] {
			b, _ := json.Marshal(v)
			out = append(out, termInput{Code: code, Value: b})
		}
	}
	add(contracts.CodeRent, pr.Rent())
	start := pr.AvailableFrom
	if !a.DesiredStart.IsZero() && a.DesiredStart.After(start) {
		start = a.DesiredStart
	}
	add(contracts.CodeStart, start)
	if pr.DepositMonths > 0 {
		add(contracts.CodeDepositMonths, pr.DepositMonths)
	}
	return out
}

// Open starts a negotiation on a shortlisted application with the
// landlord's first offer (round 1), and mails the applicant their link.
func (s *Service) Open(ctx context.Context, prop *properties.Property, in *OpenInput) (*Negotiation, []Round, error) {
	if in.ApplicationID == nil {
		return nil, nil, fault.Validation("application_id: is required")
	}
	days := s.cfg.ExpiresDays
	if in.ExpiresInDays != nil {
		if *in.ExpiresInDays < 1 || *in.ExpiresInDays > MaxExpiresDays {
			return nil, nil, fault.Validation(fmt.Sprintf("expires_in_days: must be from 1 to %d", MaxExpiresDays))
		}
		days = *in.ExpiresInDays
	}
	var n *Negotiation
	var rs []Round
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		a, pr, err := s.proposals.Application(ctx, tx, prop, *in.ApplicationID)
		if err != nil {
			if errors.Is(err, proposals.ErrNoApplication) {
				return fault.Validation("application_id: no such application of this property")
			}
			return err
		}
		if a.Status != proposals.Shortlisted {
			return fault.Conflict("not_shortlisted", "Shortlist the application before negotiating with it.")
		}
		terms := in.Terms
		if terms == nil {
			d := defaultTerms(pr, a)
			terms = &d
		}
		termsJSON, msg, err := s.checkOffer(ctx, tx, prop, terms, in.Message)
		if err != nil {
			return err
		}
		id, err := uuid.NewV7()
		if err != nil {
			return fmt.Errorf("negotiation id: %w", err)
		}
		now := s.now()
		n = &Negotiation{ID: id, WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, ProposalID: pr.ID, ApplicationID: a.ID,
			Status: Open, CurrentRound: 1, ExpiresAt: now.AddDate(0, 0, days), CreatedAt: now, UpdatedAt: now}
		if err := insertNegotiation(ctx, tx, n); err != nil {
			if database.IsUniqueViolation(err) {
				return fault.Conflict("negotiation_exists", "This application has a negotiation already.")
			}
			return fmt.Errorf("insert negotiation: %w", err)
		}
		r := Round{NegotiationID: id, Round: 1, Side: Landlord, Terms: termsJSON, Message: msg, LandlordAccepted: true, CreatedAt: now}
		if err := insertRound(ctx, tx, &r); err != nil {
			return err
		}
		rs = []Round{r}
		if err := s.notify(ctx, tx, n, mailOpened); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "negotiation",
			RecordID: id.String(), WorkspaceID: n.WorkspaceID})
	})
	if err != nil {
		return nil, nil, err
	}
	return n, rs, nil
}

// notify queues the applicant's mail in tx.
func (s *Service) notify(ctx context.Context, tx bun.Tx, n *Negotiation, kind string) error {
	_, err := s.queue.Insert(ctx, tx, mailArgs{NegotiationID: n.ID.String(), Mail: kind}, &river.InsertOpts{Queue: jobs.MailQueue})
	return err
}

// writable refuses writes to a negotiation that is not open, or whose
// time ran out before the expiry job saw it.
func (s *Service) writable(n *Negotiation) error {
	if n.Status != Open {
		return errNotOpen(n.Status)
	}
	if !s.clock.Now().Before(n.ExpiresAt) {
		return errNotOpen(Expired)
	}
	return nil
}

// Offer adds round in.Round by side: it must be the round after the
// current one (409 stale_round otherwise), and the side accepts its own
// offer.
func (s *Service) Offer(ctx context.Context, prop *properties.Property, id uuid.UUID, side string, in *OfferInput) (*Negotiation, []Round, error) {
	if in.Round == nil {
		return nil, nil, fault.Validation("round: is required")
	}
	var n *Negotiation
	var rs []Round
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		var err error
		n, err = load(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if err := s.writable(n); err != nil {
			return err
		}
		if *in.Round != n.CurrentRound+1 {
			return errStale(n.CurrentRound)
		}
		termsJSON, msg, err := s.checkOffer(ctx, tx, prop, in.Terms, in.Message)
		if err != nil {
			return err
		}
		now := s.now()
		r := Round{NegotiationID: n.ID, Round: *in.Round, Side: side, Terms: termsJSON, Message: msg,
			LandlordAccepted: side == Landlord, ApplicantAccepted: side == Applicant, CreatedAt: now}
		if err := insertRound(ctx, tx, &r); err != nil {
			if database.IsUniqueViolation(err) {
				return errStale(*in.Round)
			}
			return err
		}
		advanced, err := advanceRound(ctx, tx, n.ID, r.Round, now)
		if err != nil {
			return err
		}
		if !advanced {
			return errStale(n.CurrentRound)
		}
		n.CurrentRound, n.UpdatedAt = r.Round, now
		if side == Landlord {
			if err := s.notify(ctx, tx, n, mailOffer); err != nil {
				return err
			}
		}
		if rs, err = rounds(ctx, tx, n.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "negotiation",
			RecordID: n.ID.String(), WorkspaceID: n.WorkspaceID})
	})
	if err != nil {
		return nil, nil, err
	}
	return n, rs, nil
}

// Accept records side's acceptance of round, which must be the current
// one; both sides on one round make the negotiation agreed.
func (s *Service) Accept(ctx context.Context, id uuid.UUID, side string, round *int) (*Negotiation, []Round, error) {
	if round == nil {
		return nil, nil, fault.Validation("round: is required")
	}
	var n *Negotiation
	var rs []Round
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		var err error
		n, err = load(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if err := s.writable(n); err != nil {
			return err
		}
		if *round != n.CurrentRound {
			return errStale(n.CurrentRound)
		}
		col := "landlord_accepted"
		if side == Applicant {
			col = "applicant_accepted"
		}
		if err := acceptRound(ctx, tx, n.ID, *round, col); err != nil {
			return err
		}
		if rs, err = rounds(ctx, tx, n.ID); err != nil {
			return err
		}
		last := rs[len(rs)-1]
		if last.LandlordAccepted && last.ApplicantAccepted {
			now := s.now()
			agreed := last.Round
			if err := agree(ctx, tx, n.ID, agreed, now); err != nil {
				return err
			}
			n.Status, n.AgreedRound, n.UpdatedAt = Agreed, &agreed, now
			if err := s.notify(ctx, tx, n, mailAgreed); err != nil {
				return err
			}
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "negotiation",
			RecordID: n.ID.String(), WorkspaceID: n.WorkspaceID})
	})
	if err != nil {
		return nil, nil, err
	}
	return n, rs, nil
}

// Decline ends an open negotiation by side.
func (s *Service) Decline(ctx context.Context, id uuid.UUID, side string) (*Negotiation, []Round, error) {
	var n *Negotiation
	var rs []Round
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		var err error
		n, err = load(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if err := s.writable(n); err != nil {
			return err
		}
		now := s.now()
		if err := decline(ctx, tx, n.ID, side, now); err != nil {
			return err
		}
		n.Status, n.DeclinedBy, n.UpdatedAt = Declined, &side, now
		if side == Landlord {
			if err := s.notify(ctx, tx, n, mailDeclined); err != nil {
				return err
			}
		}
		if rs, err = rounds(ctx, tx, n.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "negotiation",
			RecordID: n.ID.String(), WorkspaceID: n.WorkspaceID})
	})
	if err != nil {
		return nil, nil, err
	}
	return n, rs, nil
}

// Expire marks every open negotiation past its time expired, in one
// statement: what the periodic job runs.
func (s *Service) Expire(ctx context.Context) (int64, error) {
	return expireOpen(ctx, s.db, s.now())
}

// List returns a page of the property's negotiations.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Negotiation, listing.Result, error) {
	return list(ctx, s.db, prop.ID, q)
}

// Contract turns an agreed negotiation into a draft contract with the
// agreed round's terms and the applicant as a new tenant contragent, once:
// a second call returns the same contract (created false). The
// negotiation's row is locked first, so concurrent calls make one.
func (s *Service) Contract(ctx context.Context, prop *properties.Property, rawID string) (*contracts.Contract, bool, error) {
	var out *contracts.Contract
	created := false
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		n, err := ofProperty(ctx, tx, prop, rawID, true)
		if err != nil {
			return err
		}
		if n.ContractID != nil {
			out, err = s.contracts.ByID(ctx, tx, *n.ContractID)
			return err
		}
		if n.Status != Agreed || n.AgreedRound == nil {
			return fault.Conflict("not_agreed", "Only an agreed negotiation becomes a contract.")
		}
		r, err := roundOf(ctx, tx, n.ID, *n.AgreedRound)
		if err != nil {
			return err
		}
		a, _, err := s.proposals.Application(ctx, tx, prop, n.ApplicationID.String())
		if err != nil {
			return err
		}
		kind, roles, name, email := contragents.KindPerson, []string{contragents.RoleTenant}, a.Name, a.Email
		in := contragents.Input{Kind: &kind, Roles: &roles, Name: &name, Email: &email}
		if a.Phone != "" {
			phone := a.Phone
			in.Phone = &phone
		}
		owner := auth.InWorkspace(prop.WorkspaceID, prop.OwnerID)
		tenant, err := s.tenants.CreateTx(ctx, tx, owner, in)
		if err != nil {
			return err
		}
		c, err := s.contracts.CreateDraftTx(ctx, tx, contracts.DraftInput{Property: prop, TenantID: tenant.ID,
			Number: "L-" + strings.ToUpper(strings.ReplaceAll(n.ID.String(), "-", "")[20:]), Locale: a.Locale, Terms: r.TermList()})
		if err != nil {
			return err
		}
		if err := linkContract(ctx, tx, n.ID, c.ID, tenant.ID, s.now()); err != nil {
			return err
		}
		out, created = c, true
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return out, created, nil
}
