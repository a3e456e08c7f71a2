package partners

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/billing"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/mail"
)

// The statuses of an invitation.
const (
	Sent       = "sent"
	Registered = "registered"
	Converted  = "converted"
)

// Invitation is a row of partner_invitations.
type Invitation struct {
	bun.BaseModel `bun:"table:partner_invitations"`

	ID                 uuid.UUID  `bun:"id,pk"`
	PartnerUserID      int64      `bun:"partner_user_id,notnull"`
	PartnerWorkspaceID int64      `bun:"partner_workspace_id,notnull"`
	Email              *string    `bun:"email"`
	Code               string     `bun:"code,notnull"`
	Status             string     `bun:"status,notnull"`
	InviteeUserID      *int64     `bun:"invitee_user_id"`
	CreatedAt          time.Time  `bun:"created_at,notnull"`
	RegisteredAt       *time.Time `bun:"registered_at"`
	ConvertedAt        *time.Time `bun:"converted_at"`
}

// Service holds the rules of invitations.
type Service struct {
	db       *bun.DB
	store    *Store
	cfg      Config
	clock    clock.Clock
	log      *slog.Logger
	mailer   mail.Mailer
	accounts *accounts.Service
	users    *accounts.Store
	dicts    *translations.Dictionaries
}

// ServiceParams are the service's dependencies; without the translations
// module the invitation mail is written in English.
type ServiceParams struct {
	fx.In
	DB       *bun.DB
	Config   Config
	Clock    clock.Clock
	Log      *slog.Logger
	Mailer   mail.Mailer
	Accounts *accounts.Service
	Users    *accounts.Store
	Dicts    *translations.Dictionaries `optional:"true"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: NewStore(p.DB), cfg: p.Config, clock: p.Clock, log: p.Log, mailer: p.Mailer, accounts: p.Accounts, users: p.Users, dicts: p.Dicts}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// codeAlphabet leaves out letters and digits read as one another (0/O,
// 1/I/L).
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

func newCode() (string, error) {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b), nil
}

// Create makes an invitation of p's workspace: for email (mailed the
// code), or, email empty, a code p shares. Inviting oneself or an email
// that has an account (so also whoever invited p: no loops) is refused.
func (s *Service) Create(ctx context.Context, p auth.Principal, email string) (*Invitation, error) {
	me, err := s.accounts.User(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	inv := &Invitation{PartnerUserID: p.UserID, PartnerWorkspaceID: p.WorkspaceID, Status: Sent, CreatedAt: s.now()}
	if email != "" {
		email = accounts.NormalizeEmail(email)
		if !accounts.ValidEmail(email) {
			return nil, fault.Validation("email: must be a valid email address")
		}
		if email == me.Email {
			return nil, fault.Conflict("self_referral", "You cannot invite yourself.")
		}
		taken, err := s.users.EmailTaken(ctx, email)
		if err != nil {
			return nil, err
		}
		if taken {
			return nil, fault.Conflict("already_registered", "This email has an account already.")
		}
		inv.Email = &email
	}
	if inv.ID, err = uuid.NewV7(); err != nil {
		return nil, err
	}
	if inv.Code, err = newCode(); err != nil {
		return nil, err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		waiting, err := s.store.waiting(ctx, tx, p.WorkspaceID)
		if err != nil {
			return err
		}
		if waiting >= s.cfg.Limit {
			return fault.Conflict("too_many_invitations", fmt.Sprintf("At most %d invitations may wait to be used.", s.cfg.Limit))
		}
		if inv.Email != nil {
			dup, err := s.store.invitedAlready(ctx, tx, p.WorkspaceID, *inv.Email)
			if err != nil {
				return err
			}
			if dup {
				return fault.Conflict("already_invited", "This email has an invitation waiting already.")
			}
		}
		return s.store.insert(ctx, tx, inv)
	})
	if err != nil {
		return nil, err
	}
	if inv.Email != nil {
		msg := s.invitationMail(me, *inv.Email, inv.Code)
		if err := s.mailer.Send(ctx, msg); err != nil {
			// The invitation stands: its code is in the answer to share by hand.
			s.log.WarnContext(ctx, "partner invitation not mailed", "invitation", inv.ID, "error", err)
		}
	}
	return inv, nil
}

// List pages the workspace's invitations, newest first.
func (s *Service) List(ctx context.Context, workspaceID int64, q listing.Query) ([]Invitation, listing.Result, error) {
	return s.store.list(ctx, workspaceID, q)
}

func refuse(msg string) error {
	return &accounts.FieldError{Details: []string{"referral_code: " + msg}}
}

// CheckReferral is accounts.Referrals: the code must be of an invitation
// not used yet, for this email when it was sent to one, and not the
// partner's own.
func (s *Service) CheckReferral(ctx context.Context, code, email string) error {
	inv, err := s.store.byCode(ctx, s.db, code)
	if err != nil {
		return err
	}
	if inv == nil || inv.Status != Sent {
		return refuse("is unknown or used already")
	}
	if inv.Email != nil && *inv.Email != email {
		return refuse("was sent to another email")
	}
	partner, err := s.accounts.User(ctx, inv.PartnerUserID)
	if err != nil {
		return err
	}
	if partner.Email == email {
		return refuse("is your own")
	}
	return nil
}

// Referred is accounts.Referrals: the new account is the invitation's.
func (s *Service) Referred(ctx context.Context, code string, userID int64) error {
	return s.store.registered(ctx, code, userID, s.now())
}

// InvoicePaid is billing.PaidListener: the first paid invoice of a
// workspace whose landlord registered through an invitation converts it
// and credits the partner's workspace once (the status moves once, and
// the credit is keyed by the invitation). A partner's own workspace earns
// nothing from itself.
func (s *Service) InvoicePaid(ctx context.Context, tx bun.Tx, workspaceID int64, _ uuid.UUID, first bool) error {
	if !first {
		return nil
	}
	inv, err := s.store.ofLandlord(ctx, tx, workspaceID)
	if err != nil || inv == nil {
		return err
	}
	if inv.PartnerWorkspaceID == workspaceID {
		return nil
	}
	now := s.now()
	changed, err := s.store.converted(ctx, tx, inv.ID, now)
	if err != nil || !changed {
		return err
	}
	who := inv.Code
	if inv.Email != nil {
		who = *inv.Email
	}
	return billing.Credit(ctx, tx, inv.PartnerWorkspaceID, s.cfg.reward, "referral of "+who, "partner:"+inv.ID.String(), now)
}

// invitationKeys are the catalogue's words of the invitation mail.
var invitationKeys = []string{"partners.invitation.subject", "partners.invitation.intro", "partners.invitation.code"}

// englishInvitation is the mail without the catalogue.
var englishInvitation = map[string]string{
	"partners.invitation.subject": "{inviter} invites you to propman",
	"partners.invitation.intro":   "Hello,\n\n{inviter} invites you to propman, the property management service.",
	"partners.invitation.code":    "Register with the referral code {code}.",
}

// invitationMail names who invites, in their language (the invitee's is
// not known yet).
func (s *Service) invitationMail(inviter *accounts.User, to, code string) mail.Message {
	t := englishInvitation
	if s.dicts != nil {
		if words, missing := s.dicts.Select(inviter.Locale, invitationKeys); len(missing) == 0 {
			t = words
		}
	}
	name := strings.TrimSpace(inviter.Name)
	if name == "" {
		name = inviter.Email
	}
	r := strings.NewReplacer("{inviter}", name, "{code}", code)
	return mail.Message{To: to, Subject: r.Replace(t["partners.invitation.subject"]),
		Text: r.Replace(t["partners.invitation.intro"]) + "\n" + r.Replace(t["partners.invitation.code"]) + "\n"}
}
