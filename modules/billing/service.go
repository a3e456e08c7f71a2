package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v85"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/money"
)

// PaidListener is told, in the transaction that marks it paid, of every
// invoice paid; first is true for the workspace's first paid invoice with
// something to pay (the partners module converts a referral on it).
type PaidListener interface {
	InvoicePaid(ctx context.Context, tx bun.Tx, workspaceID int64, invoiceID uuid.UUID, first bool) error
}

// ProvidePaidListener registers a constructor of a PaidListener with fx.
func ProvidePaidListener(constructor any) fx.Option {
	return fx.Provide(fx.Annotate(constructor, fx.As(new(PaidListener)), fx.ResultTags(`group:"billing_paid"`)))
}

// Service holds the rules of subscriptions and invoices.
type Service struct {
	db        *bun.DB
	cfg       Config
	clock     clock.Clock
	store     *Store
	log       *slog.Logger
	mailer    mail.Mailer
	accounts  *accounts.Service
	render    *printforms.Renderer
	pay       *payments
	listeners []PaidListener

	// readOnly is the set of read-only workspaces every write is checked
	// against (see bindReadOnly); replaced whole, never changed in place.
	readOnly atomic.Pointer[map[int64]bool]
	roMu     sync.Mutex
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB        *bun.DB
	Store     *Store
	Config    Config
	Clock     clock.Clock
	Log       *slog.Logger
	Mailer    mail.Mailer
	Accounts  *accounts.Service
	Renderer  *printforms.Renderer `optional:"true"`
	Payments  *payments
	Listeners []PaidListener `group:"billing_paid"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	s := &Service{db: p.DB, store: p.Store, cfg: p.Config, clock: p.Clock, log: p.Log, mailer: p.Mailer, accounts: p.Accounts,
		render: p.Renderer, pay: p.Payments, listeners: p.Listeners}
	s.readOnly.Store(&map[int64]bool{})
	return s
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// subscription returns the workspace's subscription, making it (a trial of
// pro from now) when billing sees the workspace for the first time.
func (s *Service) subscription(ctx context.Context, db bun.IDB, workspaceID int64) (*Subscription, error) {
	sub, err := s.store.subscription(ctx, db, workspaceID, false)
	if !errors.Is(err, sql.ErrNoRows) {
		return sub, err
	}
	now := s.now()
	fresh := &Subscription{WorkspaceID: workspaceID, Plan: PlanPro, Status: Trialing,
		TrialEndsAt: now.AddDate(0, 0, s.cfg.TrialDays), CreatedAt: now, UpdatedAt: now}
	if err := s.store.insertSubscription(ctx, db, fresh); err != nil {
		return nil, err
	}
	return s.store.subscription(ctx, db, workspaceID, false)
}

// Subscription returns the workspace's subscription (a trial of pro from
// now when billing sees the workspace for the first time).
func (s *Service) Subscription(ctx context.Context, workspaceID int64) (*Subscription, error) {
	return s.subscription(ctx, s.db, workspaceID)
}

// lockSubscription is subscription with the row locked for the rest of
// tx on PostgreSQL (SQLite's transactions hold the database).
func (s *Service) lockSubscription(ctx context.Context, tx bun.Tx, workspaceID int64) (*Subscription, error) {
	if _, err := s.subscription(ctx, tx, workspaceID); err != nil {
		return nil, err
	}
	return s.store.subscription(ctx, tx, workspaceID, true)
}

func (s *Service) save(ctx context.Context, db bun.IDB, sub *Subscription) error {
	sub.UpdatedAt = s.now()
	return s.store.saveSubscription(ctx, db, sub)
}

// endTrial moves a trial whose time is up on: to pro when the workspace
// has a payment method, else to free. It reports whether it changed sub.
func (s *Service) endTrial(sub *Subscription, now time.Time) bool {
	if sub.Status != Trialing || now.Before(sub.TrialEndsAt) {
		return false
	}
	sub.Status = Active
	if sub.PaymentMethodID != nil {
		sub.Plan = PlanPro
		from := sub.TrialEndsAt
		sub.BilledFrom = &from
	} else {
		sub.Plan = PlanFree
		sub.BilledFrom = nil
	}
	return true
}

// limit is how many properties in use sub allows (-1: no limit).
func (s *Service) limit(sub *Subscription, now time.Time) (string, int) {
	c := *sub
	s.endTrial(&c, now)
	if c.Status == Canceled || c.Plan == PlanFree {
		return PlanFree, s.cfg.FreeUnits
	}
	return c.Plan, -1
}

// PropertyAdding refuses a property beyond the plan's limit (402
// plan_limit); properties.Limit.
func (s *Service) PropertyAdding(ctx context.Context, tx bun.Tx, workspaceID int64) error {
	// The subscription's row lock queues the workspace's additions, so
	// two at the limit cannot both pass the count on PostgreSQL.
	sub, err := s.lockSubscription(ctx, tx, workspaceID)
	if err != nil {
		return err
	}
	plan, limit := s.limit(sub, s.now())
	if limit < 0 {
		return nil
	}
	n, err := properties.CountActive(ctx, tx, workspaceID)
	if err != nil {
		return err
	}
	if n < limit {
		return nil
	}
	return fault.WithBody(fault.KindPlanLimit, fiber.Map{
		"error":   "plan_limit",
		"message": fmt.Sprintf("The %s plan allows %d properties in use; upgrade to pro for more.", plan, limit),
		"limit":   limit, "plan": plan,
		"upgrade": fiber.Map{"plan": PlanPro, "method": http.MethodPut, "path": "/api/v1/billing/subscription"},
	})
}

// Update is a change of the subscription: nil fields stay as they are.
type Update struct {
	Plan    *string
	Country *string
	VATID   *string // "" clears it
	Company *string // "" clears it
}

// Change applies u to the workspace's subscription.
func (s *Service) Change(ctx context.Context, workspaceID int64, u Update) (*Subscription, error) {
	var out *Subscription
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		sub, err := s.lockSubscription(ctx, tx, workspaceID)
		if err != nil {
			return err
		}
		now := s.now()
		s.endTrial(sub, now)
		if u.Country != nil {
			sub.Country = u.Country
		}
		if u.Company != nil {
			sub.Company = nilIfEmpty(*u.Company)
		}
		if u.VATID != nil {
			sub.VATID = nilIfEmpty(*u.VATID)
		}
		if sub.VATID != nil {
			country := ""
			if sub.Country != nil {
				country = *sub.Country
			}
			if !ValidVATID(country, *sub.VATID) {
				return fault.Validation("vat_id: must be a VAT identification number of the billing country (" + country + "), such as " + vatPrefix(country) + "123456789")
			}
		}
		if u.Plan != nil && *u.Plan != sub.Plan || u.Plan != nil && sub.Status == Canceled {
			switch *u.Plan {
			case PlanPro:
				if sub.Status != Trialing && sub.PaymentMethodID == nil {
					return fault.Conflict("payment_method_required", "Add a payment method (POST /api/v1/billing/payment-methods) before choosing pro.")
				}
				sub.Plan = PlanPro
				if sub.Status != Trialing {
					sub.Status, sub.CanceledAt, sub.BilledFrom = Active, nil, &now
				}
			case PlanFree:
				sub.Plan, sub.BilledFrom, sub.CanceledAt = PlanFree, nil, nil
				if sub.Status == Trialing || sub.Status == Canceled {
					sub.Status = Active
				}
			}
		}
		if err := s.save(ctx, tx, sub); err != nil {
			return err
		}
		out = sub
		return nil
	})
	return out, err
}

// Cancel stops the workspace's invoices: it keeps the free plan's limits
// and its open invoices.
func (s *Service) Cancel(ctx context.Context, workspaceID int64) (*Subscription, error) {
	var out *Subscription
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		sub, err := s.lockSubscription(ctx, tx, workspaceID)
		if err != nil {
			return err
		}
		if sub.Status != Canceled {
			now := s.now()
			sub.Status, sub.CanceledAt, sub.BilledFrom = Canceled, &now, nil
			if err := s.save(ctx, tx, sub); err != nil {
				return err
			}
		}
		out = sub
		return nil
	})
	return out, err
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// bindReadOnly installs the read-only check of every workspace write and
// keeps the set of read-only workspaces fresh on this instance.
func bindReadOnly(lc fx.Lifecycle, guard *auth.Guard, s *Service) {
	guard.SetWriteCheck(s.writeCheck)
	lc.Append(fx.Hook{OnStart: func(ctx context.Context) error { return s.loadReadOnly(ctx) },
		OnStop: func(context.Context) error { guard.SetWriteCheck(nil); return nil }})
	module.Every(lc, "billing read-only", s.cfg.Refresh, func(ctx context.Context) {
		if err := s.loadReadOnly(ctx); err != nil {
			s.log.Warn("billing: read-only workspaces not reloaded", "error", err)
		}
	})
}

// loadReadOnly reads which workspaces are read-only.
func (s *Service) loadReadOnly(ctx context.Context) error {
	ids, err := s.store.readOnlyWorkspaces(ctx)
	if err != nil {
		return err
	}
	m := make(map[int64]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	s.roMu.Lock()
	s.readOnly.Store(&m)
	s.roMu.Unlock()
	return nil
}

// markReadOnly changes one workspace in this instance's set at once.
func (s *Service) markReadOnly(workspaceID int64, on bool) {
	s.roMu.Lock()
	defer s.roMu.Unlock()
	old := *s.readOnly.Load()
	if old[workspaceID] == on {
		return
	}
	m := make(map[int64]bool, len(old)+1)
	for k := range old {
		m[k] = true
	}
	if on {
		m[workspaceID] = true
	} else {
		delete(m, workspaceID)
	}
	s.readOnly.Store(&m)
}

// writeCheck refuses every write in a read-only workspace but billing's
// own routes (paying is how the workspace gets out).
func (s *Service) writeCheck(c *fiber.Ctx, p auth.Principal) error {
	if !(*s.readOnly.Load())[p.WorkspaceID] {
		return nil
	}
	if strings.HasPrefix(c.Path(), "/api/v1/billing/") {
		return nil
	}
	return fault.New(fault.KindForbidden, "read_only",
		"This workspace is read-only until its overdue invoices are paid (GET /api/v1/billing/invoices).")
}

// Credit adds amount to what the workspace's next invoice takes off, once
// per source (a second call with the same source changes nothing), in the
// caller's transaction. A function, not a method: the partners module calls
// it from the listener billing's service is built with.
func Credit(ctx context.Context, tx bun.Tx, workspaceID int64, amount money.Amount, reason, source string, at time.Time) error {
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	c := &credit{ID: id, WorkspaceID: workspaceID, Amount: amount, Reason: reason, Source: source, CreatedAt: at.UTC().Truncate(time.Microsecond)}
	return insertCredit(ctx, tx, c)
}

// AddPaymentMethod attaches a Stripe payment method (pm_...) to the
// workspace's customer and makes it the one invoices are charged to.
func (s *Service) AddPaymentMethod(ctx context.Context, p auth.Principal, methodID string) (*Subscription, error) {
	sub, err := s.subscription(ctx, s.db, p.WorkspaceID)
	if err != nil {
		return nil, err
	}
	email := ""
	if u, err := s.accounts.User(ctx, p.UserID); err == nil {
		email = u.Email
	}
	c, err := s.pay.attach(ctx, p.WorkspaceID, sub.CustomerID, email, methodID)
	if err != nil {
		return nil, paymentError(err)
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		sub, err = s.lockSubscription(ctx, tx, p.WorkspaceID)
		if err != nil {
			return err
		}
		sub.CustomerID, sub.PaymentMethodID = &c.Customer, &c.Method
		sub.Card = nilIfEmpty(c.Label)
		return s.save(ctx, tx, sub)
	})
	return sub, err
}

// paymentError turns Stripe's answers into the API's: 503 when payments
// are not configured or Stripe cannot be reached, 402 payment_failed when
// Stripe refuses the request (a card declined, a method unknown).
func paymentError(err error) error {
	if errors.Is(err, errNoStripe) {
		return fault.Unavailable("Payments are not configured on this service.")
	}
	var se *stripe.Error
	if errors.As(err, &se) {
		if se.HTTPStatusCode >= 500 || se.HTTPStatusCode == 0 {
			return fault.Unavailable("Stripe is not available; try again later.")
		}
		msg := se.Msg
		if len(msg) > 300 {
			msg = msg[:300]
		}
		return fault.New(fault.KindPlanLimit, "payment_failed", "Stripe refused: "+msg)
	}
	var apiErr *fault.Error
	if errors.As(err, &apiErr) {
		return err
	}
	return fault.Unavailable("Stripe is not available; try again later.")
}

// Config is the module's configuration: the plans and their prices.
func (s *Service) Config() Config { return s.cfg }

// Standing is a subscription as it stands now: a trial whose time is up
// already ended (as the next write will record), its unit limit (-1: none)
// and the units in use.
type Standing struct {
	Subscription Subscription
	UnitLimit    int
	ActiveUnits  int
}

// Standing returns sub as it stands now.
func (s *Service) Standing(ctx context.Context, sub *Subscription) (Standing, error) {
	now := s.now()
	st := Standing{Subscription: *sub}
	s.endTrial(&st.Subscription, now)
	_, st.UnitLimit = s.limit(sub, now)
	n, err := countActive(ctx, s, sub.WorkspaceID)
	st.ActiveUnits = n
	return st, err
}

// countActive counts the workspace's properties in use.
func countActive(ctx context.Context, s *Service, workspaceID int64) (int, error) {
	return properties.CountActive(ctx, s.db, workspaceID)
}
