package compensations

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/assets"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Kinds are the kinds of compensation.
var Kinds = []string{"repair_by_tenant", "rent_reduction", "deposit_refund", "overpayment_refund", "other"}

// DepositRefund is the kind a deposit settlement records its refund as.
const DepositRefund = "deposit_refund"

// The states of a compensation.
const (
	Pending   = "pending"
	Credited  = "credited"
	PaidOut   = "paid_out"
	Cancelled = "cancelled"
	Reversed  = "reversed"
)

// Statuses are every state, in lifecycle order.
var Statuses = []string{Pending, Credited, PaidOut, Cancelled, Reversed}

// Compensation is a row of compensations.
type Compensation struct {
	bun.BaseModel `bun:"table:compensations"`

	ID           uuid.UUID    `bun:"id,pk"`
	WorkspaceID  int64        `bun:"workspace_id,notnull"`
	PropertyID   uuid.UUID    `bun:"property_id,notnull"`
	ContractID   uuid.UUID    `bun:"contract_id,notnull"`
	Kind         string       `bun:"kind,notnull"`
	Amount       money.Amount `bun:"amount_minor,notnull"`
	Currency     string       `bun:"currency,notnull"`
	Description  string       `bun:"description,notnull"`
	Status       string       `bun:"status,notnull"`
	PaymentID    *uuid.UUID   `bun:"payment_id"`
	Method       *string      `bun:"method"`
	Reference    *string      `bun:"reference"`
	PaidOn       period.Date  `bun:"paid_on,nullzero"`
	Reason       string       `bun:"reason,notnull"`
	SettlementID *uuid.UUID   `bun:"settlement_id"`
	CreatedBy    int64        `bun:"created_by,notnull"`
	CreatedAt    time.Time    `bun:"created_at,notnull"`
	UpdatedAt    time.Time    `bun:"updated_at,notnull"`
}

// Service holds the rules of compensations and deposit settlements.
type Service struct {
	db        *bun.DB
	clock     clock.Clock
	contracts *contracts.Service
	payments  *payments.Service
	files     *documents.Files
	assets    *assets.Service
	renderer  *printforms.Renderer
	tenants   *contragents.Service
	props     *properties.Service
	accounts  *accounts.Service
	journal   *journal.Journal
}

// ServiceParams are the service's dependencies.
type ServiceParams struct {
	fx.In

	DB        *bun.DB
	Clock     clock.Clock
	Contracts *contracts.Service
	Payments  *payments.Service
	Files     *documents.Files
	Assets    *assets.Service
	Renderer  *printforms.Renderer
	Props     *properties.Service
	Accounts  *accounts.Service
	// Tenants is nil when the contragents module is off: statements then
	// print no tenant name.
	Tenants *contragents.Service `optional:"true"`
	Journal *journal.Journal     `optional:"true"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, clock: p.Clock, contracts: p.Contracts, payments: p.Payments, files: p.Files,
		assets: p.Assets, renderer: p.Renderer, tenants: p.Tenants, props: p.Props, accounts: p.Accounts, journal: p.Journal}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func (s *Service) today() period.Date { return period.DateOf(s.clock.Now()) }

// Today is the service clock's date, against which a compensation's dates
// are checked.
func (s *Service) Today() period.Date { return s.today() }

func errNotFound() error { return fault.NotFound("Compensation not found.") }

// contractOf reads, in tx, the contract with id when it is one of prop's
// (not a draft); a 400 naming field otherwise.
func (s *Service) contractOf(ctx context.Context, tx bun.IDB, prop *properties.Property, id uuid.UUID, field string) (*contracts.Contract, error) {
	c, err := s.contracts.ByID(ctx, tx, id)
	if errors.Is(err, contracts.ErrNotFound) || (err == nil && (c.PropertyID != prop.ID || c.WorkspaceID != prop.WorkspaceID)) {
		return nil, fault.Validation(field + ": must be a contract of this property")
	}
	if err != nil {
		return nil, err
	}
	if c.Status == contracts.Draft {
		return nil, fault.Validation(field + ": the contract is a draft")
	}
	return c, nil
}

// Input is a compensation as the handler checked it.
type Input struct {
	ContractID  uuid.UUID
	Kind        string
	Amount      money.Amount
	Description string
}

// Create records a pending compensation the landlord owes the tenant of a
// contract of prop.
func (s *Service) Create(ctx context.Context, p auth.Principal, prop *properties.Property, in Input) (*Compensation, error) {
	var out *Compensation
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		c, err := s.contractOf(ctx, tx, prop, in.ContractID, "contract_id")
		if err != nil {
			return err
		}
		out, err = s.insert(ctx, tx, p, prop, c, in, nil)
		return err
	})
	return out, err
}

// CreateTx is Create inside tx, the caller's transaction: another module
// records what the landlord owes a tenant together with its own writes
// (the operating-cost statement's credit).
func (s *Service) CreateTx(ctx context.Context, tx bun.IDB, p auth.Principal, prop *properties.Property, in Input) (*Compensation, error) {
	c, err := s.contractOf(ctx, tx, prop, in.ContractID, "contract_id")
	if err != nil {
		return nil, err
	}
	return s.insert(ctx, tx, p, prop, c, in, nil)
}

func (s *Service) insert(ctx context.Context, tx bun.IDB, p auth.Principal, prop *properties.Property, c *contracts.Contract, in Input, settlement *uuid.UUID) (*Compensation, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("compensation id: %w", err)
	}
	now := s.now()
	cp := &Compensation{ID: id, WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, ContractID: c.ID, Kind: in.Kind,
		Amount: in.Amount, Currency: prop.Currency, Description: in.Description, Status: Pending, SettlementID: settlement,
		CreatedBy: p.UserID, CreatedAt: now, UpdatedAt: now}
	if err := insertCompensation(ctx, tx, cp); err != nil {
		return nil, err
	}
	return cp, activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "compensation", RecordID: id.String(),
		WorkspaceID: prop.WorkspaceID, Changes: activity.Diff(nil, toJSON(cp))})
}

// Compensation returns the compensation with the raw id under prop.
// Get returns the compensation with the raw id under prop.
func (s *Service) Get(ctx context.Context, prop *properties.Property, rawID string) (*Compensation, error) {
	return s.Compensation(ctx, s.db, prop, rawID)
}

// Compensation returns, through db, the compensation with the raw id under prop.
func (s *Service) Compensation(ctx context.Context, db bun.IDB, prop *properties.Property, rawID string) (*Compensation, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNotFound()
	}
	cp, err := compensationOf(ctx, db, prop.ID, id)
	if err == nil && cp == nil {
		return nil, errNotFound()
	}
	return cp, err
}

// List returns one page of prop's compensations, oldest first, filtered
// by status, kind and contract.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Compensation, listing.Result, error) {
	return listCompensations(ctx, s.db, prop.ID, q)
}

// PayOut is how a compensation was paid to the tenant.
type PayOut struct {
	Method    string
	Reference string
	PaidOn    period.Date
}

// change runs fn on the compensation with the raw id in one transaction
// under the property's lock, after checking it is in one of the states
// from (409 invalid_transition otherwise), then stores it and logs the
// change.
func (s *Service) change(ctx context.Context, prop *properties.Property, rawID string, to string, from []string, fn func(tx bun.Tx, cp *Compensation) error) (*Compensation, error) {
	var out *Compensation
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		cp, err := s.Compensation(ctx, tx, prop, rawID)
		if err != nil {
			return err
		}
		ok := false
		for _, f := range from {
			ok = ok || cp.Status == f
		}
		if !ok {
			return fault.Conflict("invalid_transition", fmt.Sprintf("A compensation that is %s cannot become %s.", cp.Status, to))
		}
		before := toJSON(cp)
		if err := fn(tx, cp); err != nil {
			return err
		}
		cp.Status, cp.UpdatedAt = to, s.now()
		if err := updateCompensation(ctx, tx, cp); err != nil {
			return err
		}
		out = cp
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "compensation", RecordID: cp.ID.String(),
			WorkspaceID: prop.WorkspaceID, Changes: activity.Diff(before, toJSON(cp))})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Credit gives a pending compensation to the tenant as credit: a payment
// (method other, the compensation named in its reference, the tenant as
// payer) on the contract, allocated to the contract's open charges oldest
// first in the same transaction; what is left stays the contract's credit,
// used on its next charges. Balances and receipts see it as any payment.
func (s *Service) Credit(ctx context.Context, p auth.Principal, prop *properties.Property, rawID string) (*Compensation, error) {
	return s.change(ctx, prop, rawID, Credited, []string{Pending}, func(tx bun.Tx, cp *Compensation) error {
		contractID := cp.ContractID
		// A set-off, not money received: the tenant reads the
		// landlord's description of the claim, never its kind or id.
		in := payments.Input{Amount: cp.Amount, PaidOn: s.today(), Method: payments.SetOff, ContractID: &contractID,
			Reference: setOffReference(cp.Description), Contra: claimAccount(cp)}
		if tenant, ok, err := contracts.TenantOf(ctx, tx, contractID); err != nil {
			return err
		} else if ok {
			in.PayerID = &tenant
		}
		pay, err := s.payments.PostTx(ctx, tx, prop, p.UserID, in)
		if err != nil {
			return err
		}
		cp.PaymentID = &pay.ID
		return nil
	})
}

// setOffReference is the reference a set-off payment carries: the
// landlord's description of the claim, on one line and within the
// payment reference's length.
func setOffReference(description string) string {
	ref := strings.Join(strings.Fields(description), " ")
	if r := []rune(ref); len(r) > 200 {
		ref = string(r[:199]) + "…"
	}
	return ref
}

// PayOut records that a pending compensation was paid to the tenant.
func (s *Service) PayOut(ctx context.Context, prop *properties.Property, rawID string, in PayOut) (*Compensation, error) {
	return s.change(ctx, prop, rawID, PaidOut, []string{Pending}, func(tx bun.Tx, cp *Compensation) error {
		method, ref := in.Method, in.Reference
		cp.Method, cp.Reference, cp.PaidOn = &method, &ref, in.PaidOn
		return s.journal.Post(ctx, tx, payoutEntry(prop, cp))
	})
}

// Cancel drops a pending compensation.
func (s *Service) Cancel(ctx context.Context, prop *properties.Property, rawID, reason string) (*Compensation, error) {
	return s.change(ctx, prop, rawID, Cancelled, []string{Pending}, func(tx bun.Tx, cp *Compensation) error {
		cp.Reason = reason
		// A deposit refund no longer due goes back to the deposit held.
		return s.journal.Reverse(ctx, tx, reversal(prop, "compensations", cp.ID, s.today()))
	})
}

// Reverse undoes a credited or paid-out compensation: a credit's payment
// is reversed (the charges it paid are owed again, its receipt voided), a
// payout is marked as not made. 409 invalid_transition from any other
// state.
func (s *Service) Reverse(ctx context.Context, p auth.Principal, prop *properties.Property, rawID, reason string) (*Compensation, error) {
	return s.change(ctx, prop, rawID, Reversed, []string{Credited, PaidOut}, func(tx bun.Tx, cp *Compensation) error {
		cp.Reason = reason
		if cp.Status == PaidOut {
			return s.journal.Reverse(ctx, tx, reversal(prop, "compensation_payouts", cp.ID, s.today()))
		}
		if cp.Status != Credited || cp.PaymentID == nil {
			return nil
		}
		_, err := s.payments.ReverseTx(ctx, tx, prop, p.UserID, *cp.PaymentID, "compensation reversed: "+reason)
		return err
	})
}
