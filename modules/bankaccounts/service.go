package bankaccounts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"
	"golang.org/x/text/currency"

	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
)

// Bounds of the text fields. The holder's bound is EPC069-12's for the
// beneficiary's name, so every account fits in a GiroCode.
const (
	MaxHolderLen   = 70
	MaxBankNameLen = 100
	MaxLabelLen    = 100
)

// Service holds the rules of bank accounts. Other modules read an
// account with InWorkspace and PaymentAccount.
type Service struct {
	db    *bun.DB
	store *Store
	clock clock.Clock
	users []User
	// listeners hear of each account made, in its transaction.
	listeners []Listener
}

// User is a module that keeps records of an account (modules/banking
// its imported statement lines): while it has some, the account is not
// deleted.
type User interface {
	// AccountInUse says, inside tx (which holds the account's lock), why
	// the account with id cannot go: "" when nothing of the module's
	// needs it.
	AccountInUse(ctx context.Context, tx bun.Tx, id uuid.UUID) (string, error)
}

// ProvideUser registers a constructor of a User with fx.
func ProvideUser(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(User)), fx.ResultTags(`group:"bankaccount_users"`)))
}

// Listener is told of an account made, inside the transaction that made
// it (the ledger makes the account's sub-account of the bank).
type Listener interface {
	AccountCreated(ctx context.Context, tx bun.Tx, a *Account) error
}

// ProvideListener registers a constructor of a Listener with fx.
func ProvideListener(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(Listener)), fx.ResultTags(`group:"bankaccount_listeners"`)))
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB        *bun.DB
	Store     *Store
	Clock     clock.Clock
	Users     []User     `group:"bankaccount_users"`
	Listeners []Listener `group:"bankaccount_listeners"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: p.Store, clock: p.Clock, users: p.Users, listeners: p.Listeners}
}

func errNotFound() error { return fault.NotFound("Bank account not found.") }

// Get returns the account with the raw id when p may see it: 404 for a
// non-UUID or unknown id, 403 (or 404, see auth.Refuse) when it belongs
// to another workspace.
func (s *Service) Get(ctx context.Context, p *auth.Principal, rawID string) (*Account, error) {
	rec := new(Account)
	found, err := listing.ReadByID(ctx, s.db, rec, rawID, p)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errNotFound()
	}
	if rec.WorkspaceID != p.WorkspaceID && !p.IsAdmin() {
		return nil, auth.Refuse(ctx, *p, "This bank account belongs to another workspace.", "Bank account not found.")
	}
	return rec, nil
}

// InWorkspace returns, through db (the pool or the caller's
// transaction), the account with id when it is one of the workspace's;
// ErrNotFound otherwise. A contract names an account with it.
func (s *Service) InWorkspace(ctx context.Context, db bun.IDB, workspaceID int64, id uuid.UUID) (*Account, error) {
	return s.store.byID(ctx, db, workspaceID, id)
}

// PaymentAccount is the account a contract of the workspace is paid to:
// the one it names (id non-nil), else the workspace's default; nil when
// the workspace has none, and then nothing about a bank is printed.
func (s *Service) PaymentAccount(ctx context.Context, db bun.IDB, workspaceID int64, id *uuid.UUID) (*Account, error) {
	if id != nil {
		a, err := s.store.byID(ctx, db, workspaceID, *id)
		if err == nil || !errors.Is(err, ErrNotFound) {
			return a, err
		}
	}
	a, err := s.store.defaultOf(ctx, db, workspaceID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return a, err
}

// List returns a page of the workspace's accounts, oldest first.
func (s *Service) List(ctx context.Context, p *auth.Principal, q listing.Query) ([]Account, listing.Result, error) {
	return s.store.list(ctx, p, q)
}

// Create adds an account to p's workspace. The workspace's first account
// is its default whatever is_default says; a later one with is_default
// true takes the mark from the one that had it.
func (s *Service) Create(ctx context.Context, p auth.Principal, req *accountRequest) (*Account, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("bank account id: %w", err)
	}
	now := s.now()
	a := &Account{ID: id, WorkspaceID: p.WorkspaceID, Currency: "EUR", CreatedAt: now, UpdatedAt: now}
	if details := apply(a, req, true); len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	wantDefault := req.IsDefault != nil && *req.IsDefault
	// Two first accounts created at once both find no default; the
	// partial unique index refuses the second, which then tries again
	// and finds the first.
	for attempt := 0; ; attempt++ {
		err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
			cur, err := s.store.defaultOf(ctx, tx, a.WorkspaceID)
			switch {
			case errors.Is(err, ErrNotFound):
				a.IsDefault = true
			case err != nil:
				return err
			case wantDefault:
				if err := s.store.clearDefault(ctx, tx, a.WorkspaceID, now); err != nil {
					return err
				}
				a.IsDefault = true
				if err := activity.Record(ctx, tx, undefaulted(cur, now)); err != nil {
					return err
				}
			default:
				a.IsDefault = false
			}
			if err := s.store.insert(ctx, tx, a); err != nil {
				return err
			}
			for _, l := range s.listeners {
				if err := l.AccountCreated(ctx, tx, a); err != nil {
					return err
				}
			}
			return activity.Record(ctx, tx, entry(activity.Created, a, nil, toJSON(a)))
		})
		if err == nil || attempt > 0 || !database.IsUniqueViolation(err) {
			break
		}
		if taken, terr := s.store.ibanTaken(ctx, s.db, a); terr != nil || taken {
			break
		}
	}
	if err != nil {
		return nil, conflict(err)
	}
	return a, nil
}

// Update changes the given fields of the account with the raw id. Setting
// is_default true moves the mark to it; false on the default is refused:
// the workspace keeps a default while it has accounts (make another the
// default instead).
func (s *Service) Update(ctx context.Context, p auth.Principal, rawID string, req *accountRequest) (*Account, error) {
	a, err := s.Get(ctx, &p, rawID)
	if err != nil {
		return nil, err
	}
	before := *a
	details := apply(a, req, false)
	if req.IsDefault != nil && !*req.IsDefault && before.IsDefault {
		details = append(details, "is_default: the workspace's default account stays the default until another account is made the default")
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	makeDefault := req.IsDefault != nil && *req.IsDefault && !before.IsDefault
	if before == *a && !makeDefault {
		return a, nil
	}
	now := s.now()
	a.UpdatedAt = now
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if makeDefault {
			cur, err := s.store.defaultOf(ctx, tx, a.WorkspaceID)
			if err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
			if err := s.store.clearDefault(ctx, tx, a.WorkspaceID, now); err != nil {
				return err
			}
			if cur != nil {
				if err := activity.Record(ctx, tx, undefaulted(cur, now)); err != nil {
					return err
				}
			}
			a.IsDefault = true
		}
		if err := s.store.update(ctx, tx, a); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Updated, a, toJSON(&before), toJSON(a)))
	})
	if err != nil {
		return nil, conflict(err)
	}
	return a, nil
}

// Delete removes the account with the raw id: 409 in_use while a contract
// names it (the contract is pointed at another account first). Deleting
// the default makes the oldest remaining account the default.
func (s *Service) Delete(ctx context.Context, p auth.Principal, rawID string) error {
	a, err := s.Get(ctx, &p, rawID)
	if err != nil {
		return err
	}
	now := s.now()
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		cur, err := s.store.lock(ctx, tx, a.WorkspaceID, a.ID)
		if err != nil {
			return err
		}
		for _, u := range s.users {
			msg, err := u.AccountInUse(ctx, tx, a.ID)
			if err != nil {
				return err
			}
			if msg != "" {
				return fault.Conflict("in_use", msg)
			}
		}
		if err := s.store.delete(ctx, tx, a.ID); err != nil {
			return err
		}
		if err := activity.Record(ctx, tx, entry(activity.Deleted, cur, toJSON(cur), nil)); err != nil {
			return err
		}
		if !cur.IsDefault {
			return nil
		}
		next, err := s.store.oldestOther(ctx, tx, a.WorkspaceID, a.ID)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		before := *next
		next.IsDefault, next.UpdatedAt = true, now
		if err := s.store.update(ctx, tx, next); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Updated, next, toJSON(&before), toJSON(next)))
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return errNotFound()
	case database.IsForeignKeyViolation(err):
		return fault.Conflict("in_use", "A contract names this bank account as the one its rent is paid to; point the contract at another account first.")
	}
	return err
}

// apply checks the given fields of req and copies them onto a; create
// requires holder and iban. It returns one message per problem.
func apply(a *Account, req *accountRequest, create bool) []string {
	var details []string
	text := func(name string, v *string, max int, required bool, dst *string) {
		if v == nil {
			if required {
				details = append(details, name+": is required")
			}
			return
		}
		t := strings.TrimSpace(*v)
		switch {
		case required && t == "":
			details = append(details, name+": must not be empty")
		case utf8.RuneCountInString(t) > max:
			details = append(details, fmt.Sprintf("%s: must be at most %d characters", name, max))
		default:
			*dst = t
		}
	}
	text("holder", req.Holder, MaxHolderLen, create || req.Holder != nil, &a.Holder)
	text("bank_name", req.BankName, MaxBankNameLen, false, &a.BankName)
	text("label", req.Label, MaxLabelLen, false, &a.Label)
	switch {
	case req.IBAN != nil:
		if iban, why := NormalizeIBAN(*req.IBAN); why != "" {
			details = append(details, "iban: "+why)
		} else {
			a.IBAN = iban
		}
	case create:
		details = append(details, "iban: is required")
	}
	if req.BIC != nil {
		if strings.TrimSpace(*req.BIC) == "" {
			a.BIC = ""
		} else if bic, why := NormalizeBIC(*req.BIC); why != "" {
			details = append(details, "bic: "+why)
		} else {
			a.BIC = bic
		}
	}
	if req.Currency != nil {
		c := strings.ToUpper(strings.TrimSpace(*req.Currency))
		if u, err := currency.ParseISO(c); err != nil || len(c) != 3 {
			details = append(details, "currency: must be an ISO 4217 currency code such as EUR")
		} else {
			a.Currency = u.String()
		}
	}
	return details
}

// conflict turns the unique IBAN index's refusal into its 409.
func conflict(err error) error {
	if database.IsUniqueViolation(err) {
		return fault.Conflict("iban_exists", "The workspace already has a bank account with this IBAN.")
	}
	return err
}

// entry is the activity log's line of a write of a.
func entry(action string, a *Account, before, after any) activity.Entry {
	return activity.Entry{
		Action: action, RecordType: "bank_account", RecordID: a.ID.String(), WorkspaceID: a.WorkspaceID,
		Changes: activity.Diff(before, after),
	}
}

// undefaulted is the log line of cur losing the default mark.
func undefaulted(cur *Account, now time.Time) activity.Entry {
	after := *cur
	after.IsDefault, after.UpdatedAt = false, now
	return entry(activity.Updated, cur, toJSON(cur), toJSON(&after))
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }
