package tenancy

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/modules/workspaces"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/mail"
)

// Service holds the portal's rules: invitations, links and what a linked
// tenant may read.
type Service struct {
	db          *bun.DB
	cfg         Config
	clock       clock.Clock
	mailer      mail.Mailer
	accounts    *accounts.Service
	workspaces  *workspaces.Service
	contragents *contragents.Service
	contracts   *contracts.Service
	props       *properties.Service
	dicts       *translations.Dictionaries
}

// NewService returns the service.
func NewService(db *bun.DB, cfg Config, clk clock.Clock, mailer mail.Mailer, acc *accounts.Service,
	ws *workspaces.Service, cg *contragents.Service, cs *contracts.Service, props *properties.Service, dicts *translations.Dictionaries) *Service {
	return &Service{db: db, cfg: cfg, clock: clk, mailer: mailer, accounts: acc, workspaces: ws,
		contragents: cg, contracts: cs, props: props, dicts: dicts}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// Now is the service clock's time, against which an invitation expires.
func (s *Service) Now() time.Time { return s.now() }

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Invite mails the contragent (of p's workspace) a link to the portal, at
// the contragent's email. An earlier pending invitation of the contragent
// stops working.
func (s *Service) Invite(ctx context.Context, p auth.Principal, rawContragent string) (*Invitation, error) {
	c, err := s.contragents.Authorize(ctx, p, rawContragent)
	if err != nil {
		return nil, err
	}
	email := accounts.NormalizeEmail(c.Email)
	if len(email) > 254 || !accounts.ValidEmail(email) {
		return nil, fault.Validation("email: must be a valid email address (the contragent has none on file)")
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("invitation token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	now := s.now()
	inv := &Invitation{
		WorkspaceID: p.WorkspaceID, ContragentID: c.ID, Email: email, TokenHash: hashToken(token),
		Status: Pending, ExpiresAt: now.Add(s.cfg.InviteTTL), InvitedBy: p.UserID, CreatedAt: now, UpdatedAt: now,
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := revokePending(ctx, tx, c.ID, now); err != nil {
			return err
		}
		if err := insertInvitation(ctx, tx, inv); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "portal_invitation",
			RecordID: strconv.FormatInt(inv.ID, 10), WorkspaceID: p.WorkspaceID,
			Changes: map[string]activity.Change{"contragent_id": {nil, c.ID.String()}, "email": {nil, email}}})
	})
	if err != nil {
		return nil, err
	}
	// Sent after the commit, so that no transaction (on SQLite, every
	// writer) waits on the mail server; an invitation whose mail could not
	// be sent is taken back, with its log entry.
	landlord, locale := "", accounts.DefaultLocale
	if u, ok := p.Record.(*accounts.User); ok {
		landlord, locale = u.Name, u.Locale
	}
	if list, _, err := s.contracts.OfTenants(ctx, []uuid.UUID{c.ID}, listing.Query{Page: 1, PerPage: 1}); err == nil && len(list) > 0 && list[0].Locale != "" {
		locale = list[0].Locale
	}
	if err := s.send(ctx, c.Name, landlord, locale, inv, token); err != nil {
		undo := func(ctx context.Context, tx bun.Tx) error {
			if err := deleteInvitation(ctx, tx, inv.ID); err != nil {
				return err
			}
			return activity.Withdraw(ctx, tx, inv.WorkspaceID, "portal_invitation", strconv.FormatInt(inv.ID, 10))
		}
		if uerr := database.RunInTx(context.WithoutCancel(ctx), s.db, undo); uerr != nil {
			return nil, uerr
		}
		return nil, err
	}
	return inv, nil
}

// invitationKeys are the catalogue's words of the portal invitation.
var invitationKeys = []string{"tenancy.invitation.subject", "tenancy.invitation.greeting", "tenancy.invitation.intro",
	"tenancy.invitation.accept", "tenancy.invitation.validity"}

// send mails the invitation to the tenant named name, in their language
// (the locale of their latest contract, else the landlord's), naming the
// landlord who invites.
func (s *Service) send(ctx context.Context, name, landlord, locale string, inv *Invitation, token string) error {
	link := s.cfg.InviteURL + token
	days := strconv.Itoa(int(s.cfg.InviteTTL / (24 * time.Hour)))
	t := map[string]string{}
	if s.dicts != nil {
		t, _ = s.dicts.Select(locale, invitationKeys)
	}
	say := func(key string, escape func(string) string) string {
		text := t[key]
		if text == "" {
			text = key
		}
		return strings.NewReplacer("{name}", escape(name), "{landlord}", escape(landlord), "{days}", days).Replace(text)
	}
	plain := func(s string) string { return s }
	text := say("tenancy.invitation.greeting", plain) + "\n\n" + say("tenancy.invitation.intro", plain) + "\n\n" +
		say("tenancy.invitation.accept", plain) + "\n" + link + "\n\n" + say("tenancy.invitation.validity", plain) + "\n"
	htmlBody := "<p>" + say("tenancy.invitation.greeting", html.EscapeString) + "</p><p>" + say("tenancy.invitation.intro", html.EscapeString) +
		"</p><p>" + say("tenancy.invitation.accept", html.EscapeString) + `<br><a href="` + html.EscapeString(link) + `">` +
		html.EscapeString(link) + "</a></p><p>" + say("tenancy.invitation.validity", html.EscapeString) + "</p>"
	if err := s.mailer.Send(ctx, mail.Message{To: inv.Email, Subject: say("tenancy.invitation.subject", plain), Text: text, HTML: htmlBody}); err != nil {
		return fault.Unavailable("The invitation mail could not be sent; nothing was saved. Try again later.")
	}
	return nil
}

// errNoInvitation is the one answer for a token that is unknown, used,
// revoked or expired: the accept route is no oracle of which.
func errNoInvitation() error {
	return fault.New(fault.KindNotFound, "invitation_not_found", "This invitation does not exist, was used, was revoked or has expired.")
}

// Accept links the signed-in user to the invitation's contragent, once:
// the token must be pending and unexpired and the user's (verified) email
// the invited one.
func (s *Service) Accept(ctx context.Context, userID int64, token string) (*Invitation, error) {
	u, err := s.accounts.User(ctx, userID)
	if err != nil {
		return nil, err
	}
	var inv Invitation
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		err := invitationByHash(ctx, tx, hashToken(token), &inv)
		if errors.Is(err, sql.ErrNoRows) {
			return errNoInvitation()
		}
		if err != nil {
			return fmt.Errorf("invitation: %w", err)
		}
		now := s.now()
		if inv.StatusAt(now) != Pending {
			return errNoInvitation()
		}
		if !strings.EqualFold(inv.Email, u.Email) {
			return fault.New(fault.KindForbidden, "email_mismatch",
				"This invitation is for another email address: sign in with the account of the address it was sent to.")
		}
		// Single use: of two accepts at once, one changes the row.
		accepted, err := accept(ctx, tx, inv.ID, userID, now)
		if err != nil {
			return err
		}
		if !accepted {
			return errNoInvitation()
		}
		inv.Status, inv.AcceptedBy, inv.UpdatedAt = Accepted, &userID, now
		if err := s.workspaces.LinkTenant(ctx, tx, userID, inv.ContragentID, inv.WorkspaceID); err != nil {
			return err
		}
		// In the landlord's workspace log: the tenant has no role there.
		return activity.Record(ctx, tx, activity.Entry{Action: "linked", RecordType: "tenant",
			RecordID: inv.ContragentID.String(), WorkspaceID: inv.WorkspaceID,
			Changes: map[string]activity.Change{"user_id": {nil, userID}}})
	})
	if err != nil {
		return nil, err
	}
	return &inv, nil
}

// tenantOf returns the contragents the user is the tenant of.
func (s *Service) tenantOf(ctx context.Context, userID int64) ([]uuid.UUID, error) {
	links, err := s.workspaces.TenantOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, 0, len(links))
	for _, l := range links {
		ids = append(ids, l.ContragentID)
	}
	return ids, nil
}

// Contracts returns one page of the user's contracts as a tenant, newest
// first.
func (s *Service) Contracts(ctx context.Context, userID int64, q listing.Query) ([]contracts.Contract, listing.Result, error) {
	ids, err := s.tenantOf(ctx, userID)
	if err != nil {
		return nil, listing.Result{}, err
	}
	return s.contracts.OfTenants(ctx, ids, q)
}

// Tenancy is one of a tenant's contracts with its property, reached as the
// workspace would (for the other modules' reads).
type Tenancy struct {
	Contract *contracts.Contract
	Property *properties.Property
	As       auth.Principal
}

// Contract returns the user's contract with the raw id: 404 unless the
// user is its tenant (and not a draft).
func (s *Service) Contract(ctx context.Context, userID int64, rawID string) (*Tenancy, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNoContract()
	}
	ids, err := s.tenantOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	c, err := s.contracts.OfTenant(ctx, ids, id)
	if errors.Is(err, contracts.ErrNotFound) {
		return nil, errNoContract()
	}
	if err != nil {
		return nil, err
	}
	as := auth.InWorkspace(c.WorkspaceID, c.OwnerID)
	prop, err := s.props.Authorize(ctx, as, c.PropertyID.String())
	if err != nil {
		return nil, err
	}
	return &Tenancy{Contract: c, Property: prop, As: as}, nil
}

func errNoContract() error { return fault.NotFound("Contract not found.") }
