package workspaces

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/config"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/mail"
)

// Invitation rules.
const (
	// InvitationValidity is how long an invitation's link works.
	InvitationValidity = 7 * 24 * time.Hour
	// MaxPendingInvitations bounds the unexpired pending invitations of one
	// workspace: the only limit on how much mail an owner can make propman
	// send.
	MaxPendingInvitations = 100
	tokenBytes            = 32
	emailMax              = 254
)

// Invitation statuses as stored; expired is read, never stored.
const (
	statusPending  = "pending"
	statusAccepted = "accepted"
	statusRevoked  = "revoked"
	statusExpired  = "expired"
)

// InviteConfig is the section modules.workspaces.
type InviteConfig struct {
	// InviteURL is what the token is appended to in the mail: the page of
	// the client that accepts it. Deprecated: unset, it is
	// <http.publicurl>/accept-invitation?token=, which is what to configure.
	InviteURL string `koanf:"inviteurl"`
}

// NewInviteConfig reads modules.workspaces with its defaults.
func NewInviteConfig(cfg *config.Config) (InviteConfig, error) {
	var c InviteConfig
	if err := cfg.Module(Name, &c); err != nil {
		return InviteConfig{}, err
	}
	if c.InviteURL == "" {
		c.InviteURL, _ = cfg.HTTP.Link("/accept-invitation?token=")
	}
	if strings.TrimSpace(c.InviteURL) == "" {
		return InviteConfig{}, &config.Error{Key: "modules.workspaces.inviteurl", Reason: "must not be empty"}
	}
	return c, nil
}

// Invitation is a row of workspace_invitations.
type Invitation struct {
	bun.BaseModel `bun:"table:workspace_invitations"`

	ID          int64     `bun:"id,pk,autoincrement"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	Email       string    `bun:"email,notnull"`
	Role        string    `bun:"role,notnull"`
	Status      string    `bun:"status,notnull"`
	TokenHash   string    `bun:"token_hash,notnull"`
	InvitedBy   *int64    `bun:"invited_by"`
	AcceptedBy  *int64    `bun:"accepted_by"`
	ExpiresAt   time.Time `bun:"expires_at,notnull"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
	UpdatedAt   time.Time `bun:"updated_at,notnull"`
}

// statusAt is the invitation's status as the API shows it at now.
func (i *Invitation) statusAt(now time.Time) string {
	if i.Status == statusPending && !now.Before(i.ExpiresAt) {
		return statusExpired
	}
	return i.Status
}

// Invitations holds the rules of invitations to a workspace.
type Invitations struct {
	db     *bun.DB
	store  *Store
	clock  clock.Clock
	mailer mail.Mailer
	dicts  *translations.Dictionaries
	cfg    InviteConfig
	log    *slog.Logger
}

// InvitationsParams are the invitations' dependencies. Dicts is nil when
// the translations module is off: the mail is then written in English.
type InvitationsParams struct {
	fx.In
	DB     *bun.DB
	Store  *Store
	Clock  clock.Clock
	Mailer mail.Mailer
	Config InviteConfig
	Log    *slog.Logger
	Dicts  *translations.Dictionaries `optional:"true"`
}

// NewInvitations returns the invitations service.
func NewInvitations(p InvitationsParams) *Invitations {
	return &Invitations{db: p.DB, store: p.Store, clock: p.Clock, mailer: p.Mailer, cfg: p.Config, log: p.Log, dicts: p.Dicts}
}

func (s *Invitations) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func errInvitationNotFound() *fault.Error {
	return fault.New(fault.KindNotFound, "invitation_not_found",
		"No pending invitation has this token: it is unknown, used, revoked or expired.")
}

func errAlreadyMember() *fault.Error {
	return fault.Conflict("already_member", "This address belongs to a member of the workspace.")
}

// hashToken is what is stored of a token: its SHA-256, hex. The token has
// 256 random bits, so no salt or slow hash is needed against guessing.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func newToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("invitation token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// Invite invites email to p's workspace with role and mails the link. A
// pending invitation of the same address is replaced: its token stops
// working. Nothing stays stored when the mail cannot be sent.
func (s *Invitations) Invite(ctx context.Context, p auth.Principal, email, role string) (*Invitation, error) {
	email = accounts.NormalizeEmail(email)
	var details []string
	switch {
	case email == "":
		details = append(details, "email: is required")
	case len(email) > 254 || !accounts.ValidEmail(email):
		details = append(details, "email: must be a valid email address of at most 254 characters")
	}
	if _, ok := auth.ParseRole(role); !ok {
		details = append(details, "role: must be one of owner, manager, accountant, viewer")
	}
	if details != nil {
		return nil, fault.Validation(details...)
	}
	token, err := newToken()
	if err != nil {
		return nil, err
	}
	now := s.now()
	inv := &Invitation{
		WorkspaceID: p.WorkspaceID, Email: email, Role: role, Status: statusPending,
		TokenHash: hashToken(token), InvitedBy: &p.UserID,
		ExpiresAt: now.Add(InvitationValidity), CreatedAt: now, UpdatedAt: now,
	}
	var ws *Workspace
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		// Serialises invitations of one workspace, so the bound and the
		// one-pending-per-address rule hold under concurrent requests.
		if err := s.store.lockOwners(ctx, tx, p.WorkspaceID); err != nil {
			return err
		}
		member, err := s.store.MemberByEmail(ctx, tx, p.WorkspaceID, email)
		if err != nil {
			return err
		}
		if member {
			return errAlreadyMember()
		}
		if err := s.store.DropPendingInvitation(ctx, tx, p.WorkspaceID, email); err != nil {
			return err
		}
		n, err := s.store.PendingInvitations(ctx, tx, p.WorkspaceID, now)
		if err != nil {
			return err
		}
		if n >= MaxPendingInvitations {
			return fault.Conflict("too_many_invitations", fmt.Sprintf(
				"The workspace has %d pending invitations, the most it may have: revoke some first.", MaxPendingInvitations))
		}
		if err := s.store.InsertInvitation(ctx, tx, inv); err != nil {
			return err
		}
		if err := activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "invitation",
			RecordID: strconv.FormatInt(inv.ID, 10), WorkspaceID: p.WorkspaceID,
			Changes: map[string]activity.Change{"email": {nil, inv.Email}, "role": {nil, inv.Role}}}); err != nil {
			return err
		}
		ws, err = s.store.ByID(ctx, tx, p.WorkspaceID)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Sent after the commit, so no transaction waits on the mail server.
	inviter, locale := "", accounts.DefaultLocale
	if u, ok := p.Record.(*accounts.User); ok {
		inviter, locale = u.Name, u.Locale
	}
	if err := s.mailer.Send(ctx, s.message(ws, inv, token, inviter, locale)); err != nil {
		s.log.WarnContext(ctx, "invitation mail not sent", "error", err)
		undo := func(ctx context.Context, tx bun.Tx) error {
			if err := s.store.DeleteInvitation(ctx, tx, inv.ID); err != nil {
				return err
			}
			return activity.Withdraw(ctx, tx, inv.WorkspaceID, "invitation", strconv.FormatInt(inv.ID, 10))
		}
		if derr := database.RunInTx(ctx, s.db, undo); derr != nil {
			return nil, derr
		}
		return nil, fault.Unavailable("The invitation email could not be sent; nothing was stored. Try again later.")
	}
	return inv, nil
}

// invitationKeys are the catalogue's words of the invitation mail.
var invitationKeys = []string{"workspaces.invitation.subject", "workspaces.invitation.intro", "workspaces.invitation.accept",
	"workspaces.invitation.validity", "workspaces.role.owner", "workspaces.role.manager", "workspaces.role.accountant", "workspaces.role.viewer"}

// englishInvitation is the mail without the catalogue.
var englishInvitation = map[string]string{
	"workspaces.invitation.subject":  "{inviter} invites you to {workspace} on propman",
	"workspaces.invitation.intro":    "{inviter} invites you to the workspace “{workspace}” on propman as {role}.",
	"workspaces.invitation.accept":   "Accept the invitation, signed in with this address ({email}):",
	"workspaces.invitation.validity": "The link works once, for {days} days. If you did not expect this, ignore this email.",
}

// message is the invitation mail; the link carries the token. It names
// who invites, and is written in their language (the invitee's is not
// known yet; a team mostly shares one).
func (s *Invitations) message(ws *Workspace, inv *Invitation, token, inviter, locale string) mail.Message {
	link := s.cfg.InviteURL + token
	days := int(InvitationValidity / (24 * time.Hour))
	t := map[string]string{}
	if s.dicts != nil {
		t, _ = s.dicts.Select(locale, invitationKeys)
	} else {
		t = englishInvitation
	}
	role := t["workspaces.role."+inv.Role]
	if role == "" {
		role = inv.Role
	}
	if strings.TrimSpace(inviter) == "" {
		inviter = "propman"
	}
	say := func(key string, escape func(string) string) string {
		text := t[key]
		for k, v := range map[string]string{"{inviter}": inviter, "{workspace}": ws.Name, "{role}": role, "{email}": inv.Email, "{days}": strconv.Itoa(days)} {
			text = strings.ReplaceAll(text, k, escape(v))
		}
		return text
	}
	plain := func(s string) string { return s }
	text := say("workspaces.invitation.intro", plain) + "\n\n" + say("workspaces.invitation.accept", plain) + "\n" + link + "\n\n" +
		say("workspaces.invitation.validity", plain) + "\n"
	page := "<p>" + say("workspaces.invitation.intro", html.EscapeString) + "</p><p>" + say("workspaces.invitation.accept", html.EscapeString) +
		`<br><a href="` + html.EscapeString(link) + `">` + html.EscapeString(link) + "</a></p><p>" +
		say("workspaces.invitation.validity", html.EscapeString) + "</p>"
	return mail.Message{To: inv.Email, Subject: say("workspaces.invitation.subject", plain), Text: text, HTML: page}
}

// List returns one page of the invitations of p's workspace, newest first.
func (s *Invitations) List(ctx context.Context, p auth.Principal, q listing.Query) ([]Invitation, listing.Result, error) {
	return s.store.Invitations(ctx, p.WorkspaceID, q)
}

// Revoke revokes a pending invitation of p's workspace (an expired one
// too); an accepted or revoked one is a 409 invitation_not_pending.
func (s *Invitations) Revoke(ctx context.Context, p auth.Principal, id int64) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		inv, err := s.store.Invitation(ctx, tx, p.WorkspaceID, id)
		if errors.Is(err, ErrNotFound) {
			return fault.NotFound("No invitation of this workspace has this id.")
		}
		if err != nil {
			return err
		}
		ok, err := s.store.RevokeInvitation(ctx, tx, inv.ID, s.now())
		if err != nil {
			return err
		}
		if !ok {
			return fault.Conflict("invitation_not_pending", "The invitation was already "+inv.Status+".")
		}
		return activity.Record(ctx, tx, activity.Entry{Action: "revoked", RecordType: "invitation",
			RecordID: strconv.FormatInt(inv.ID, 10), WorkspaceID: p.WorkspaceID})
	})
}

// Accept makes the signed-in user p a member of the workspace the token
// invites to, with the invited role, and uses the token up. The user's
// email must be the invited one. A user who is a member already keeps the
// higher of their role and the invited one.
func (s *Invitations) Accept(ctx context.Context, p auth.Principal, token string) (*Mine, error) {
	hash := hashToken(token)
	now := s.now()
	// The user's own workspace first, as their first request that needs a
	// workspace would make it: else the joined one would become their
	// only one and their default.
	if _, err := s.store.CreateOwn(ctx, p.UserID, now); err != nil {
		return nil, err
	}
	var out *Mine
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		inv, err := s.store.InvitationByHash(ctx, tx, hash)
		if errors.Is(err, ErrNotFound) {
			return errInvitationNotFound()
		}
		if err != nil {
			return err
		}
		if inv.statusAt(now) != statusPending {
			return errInvitationNotFound()
		}
		email, err := s.store.UserEmail(ctx, tx, p.UserID)
		if err != nil {
			return err
		}
		if !strings.EqualFold(accounts.NormalizeEmail(email), inv.Email) {
			return fault.New(fault.KindForbidden, "email_mismatch",
				"This invitation is for another email address: sign in with the invited one.")
		}
		// Conditional on pending and unexpired: of two accepts of one token
		// exactly one changes the row.
		ok, err := s.store.AcceptInvitation(ctx, tx, inv.ID, p.UserID, now)
		if err != nil {
			return err
		}
		if !ok {
			return errInvitationNotFound()
		}
		// Serialised with every other change of the workspace's members
		// (PostgreSQL): two invitations of one user accepted at once would
		// otherwise both find no membership and both insert one.
		if err := s.store.lockOwners(ctx, tx, inv.WorkspaceID); err != nil {
			return err
		}
		m, err := s.store.Join(ctx, tx, inv.WorkspaceID, p.UserID, inv.Role, now)
		if err != nil {
			return err
		}
		ws, err := s.store.ByID(ctx, tx, inv.WorkspaceID)
		if err != nil {
			return err
		}
		out = &Mine{Workspace: *ws, Role: m.Role, IsDefault: m.IsDefault}
		// In the joined workspace's log, not the accepting user's own.
		return activity.Record(ctx, tx, activity.Entry{Action: "joined", RecordType: "member",
			RecordID: strconv.FormatInt(p.UserID, 10), WorkspaceID: inv.WorkspaceID,
			Changes: map[string]activity.Change{"role": {nil, m.Role}}})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
