package violations

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/law"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The states of a violation.
const (
	Open         = "open"
	Acknowledged = "acknowledged"
	Disputed     = "disputed"
	Resolved     = "resolved"
	Withdrawn    = "withdrawn"
)

// Statuses are every state, in lifecycle order.
var Statuses = []string{Open, Acknowledged, Disputed, Resolved, Withdrawn}

// next is the state machine: the states each state may move to. The
// tenant acknowledges or disputes an open violation; either ends resolved
// (the breach remedied, the fine stands) or withdrawn (the landlord drops
// it, the fine is cancelled); an open one may also be withdrawn at once.
var next = map[string][]string{
	Open:         {Acknowledged, Disputed, Withdrawn},
	Acknowledged: {Resolved, Withdrawn},
	Disputed:     {Resolved, Withdrawn},
}

// Violation is a row of violations.
type Violation struct {
	bun.BaseModel `bun:"table:violations"`

	ID           uuid.UUID   `bun:"id,pk"`
	WorkspaceID  int64       `bun:"workspace_id,notnull"`
	PropertyID   uuid.UUID   `bun:"property_id,notnull"`
	ContractID   uuid.UUID   `bun:"contract_id,notnull"`
	Code         string      `bun:"code,notnull"`
	OccurredOn   period.Date `bun:"occurred_on,notnull"`
	Description  string      `bun:"description,notnull"`
	Evidence     string      `bun:"evidence,notnull"`
	Status       string      `bun:"status,notnull"`
	FineChargeID *uuid.UUID  `bun:"fine_charge_id"`
	FineMinor    *int64      `bun:"fine_minor"`
	Note         string      `bun:"note,notnull"`
	CreatedBy    int64       `bun:"created_by,notnull"`
	CreatedAt    time.Time   `bun:"created_at,notnull"`
	UpdatedAt    time.Time   `bun:"updated_at,notnull"`
}

// Service holds the rules of violations.
type Service struct {
	db        *bun.DB
	store     *Store
	clock     clock.Clock
	files     *documents.Files
	contracts *contracts.Service
	charges   *expenses.Service
}

// ServiceParams are the service's dependencies.
type ServiceParams struct {
	fx.In

	DB        *bun.DB
	Store     *Store
	Clock     clock.Clock
	Files     *documents.Files
	Contracts *contracts.Service
	Charges   *expenses.Service
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: p.Store, clock: p.Clock, files: p.Files, contracts: p.Contracts, charges: p.Charges}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// Input is a violation as the handler checked it.
type Input struct {
	ContractID  uuid.UUID
	Code        string
	OccurredOn  period.Date
	Description string
	Evidence    []uuid.UUID
	Fine        *money.Amount
	FineDue     period.Date
}

// Create records a violation of a contract of prop and, with a fine, its
// charge (kind fine, on the contract, due on FineDue or today) through the
// expenses ledger, in one transaction under the property's lock.
func (s *Service) Create(ctx context.Context, p auth.Principal, prop *properties.Property, in Input) (*Violation, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("violation id: %w", err)
	}
	var out *Violation
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		c, err := s.contracts.ByID(ctx, tx, in.ContractID)
		if errors.Is(err, contracts.ErrNotFound) || (err == nil && (c.PropertyID != prop.ID || c.WorkspaceID != prop.WorkspaceID)) {
			return &InvalidError{Details: []string{"contract_id: must be a contract of this property"}}
		}
		if err != nil {
			return err
		}
		var details []string
		if c.Status == contracts.Draft {
			details = append(details, "contract_id: the contract is a draft; a draft binds no one")
		}
		if in.Code != "" && !slices.ContainsFunc(c.TermList(), func(t contracts.Term) bool { return t.Code == in.Code }) {
			details = append(details, "code: must be the code of one of the contract's terms")
		}
		if len(in.Evidence) > 0 {
			found, err := s.files.OfProperty(ctx, tx, prop.ID, in.Evidence)
			if err != nil {
				return err
			}
			if len(found) != len(in.Evidence) {
				details = append(details, "evidence: every id must be a document of this property")
			}
		}
		if len(details) > 0 {
			return &InvalidError{Details: details}
		}
		if in.Fine != nil {
			if r := law.Of(prop.CountryCode); !r.Fines {
				return &FineVoidError{Rules: r}
			}
		}
		now := s.now()
		v := &Violation{ID: id, WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, ContractID: c.ID, Code: in.Code,
			OccurredOn: in.OccurredOn, Description: in.Description, Evidence: idsJSON(in.Evidence), Status: Open,
			CreatedBy: p.UserID, CreatedAt: now, UpdatedAt: now}
		if in.Fine != nil {
			due := in.FineDue
			if due.IsZero() {
				due = period.DateOf(now)
			}
			name := chargename.Name{Kind: chargename.Fine, Args: []string{c.Number}}
			if in.Code != "" {
				name.Args = append(name.Args, in.Code)
			}
			ch, err := s.charges.CreateFineTx(ctx, tx, prop, c.ID, expenses.FineInput{Name: name, Amount: *in.Fine, DueDate: due})
			if err != nil {
				return err
			}
			amount := int64(*in.Fine)
			v.FineChargeID, v.FineMinor = &ch.ID, &amount
		}
		if err := s.store.insert(ctx, tx, v); err != nil {
			return err
		}
		out = v
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "violation", RecordID: v.ID.String(),
			WorkspaceID: prop.WorkspaceID, Changes: activity.Diff(nil, toJSON(v))})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Get returns the violation with the raw id under prop, or ErrNotFound.
func (s *Service) Get(ctx context.Context, prop *properties.Property, rawID string) (*Violation, error) {
	return s.store.get(ctx, s.db, prop.ID, rawID)
}

// List returns one page of prop's violations, oldest first, filtered by
// status and contract.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Violation, listing.Result, error) {
	return s.store.list(ctx, prop.ID, q)
}

// Move takes the violation with the raw id to the state to, with an
// optional note: 409 invalid_transition when the state machine does not
// allow it. Withdrawing cancels the fine's charge and its late fee, 409
// has_payments when money was allocated to either (reverse the payment
// first).
func (s *Service) Move(ctx context.Context, p auth.Principal, prop *properties.Property, rawID, to, note string) (*Violation, error) {
	var out *Violation
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		v, err := s.store.get(ctx, tx, prop.ID, rawID)
		if err != nil {
			return err
		}
		if !slices.Contains(next[v.Status], to) {
			return &TransitionError{From: v.Status, To: to}
		}
		before := toJSON(v)
		if to == Withdrawn && v.FineChargeID != nil {
			// A late fee on the fine (LATE_FEE_ON_FINES) goes with it.
			err := s.charges.CancelPenaltyOfInTx(ctx, tx, *v.FineChargeID, p.UserID)
			if errors.Is(err, expenses.ErrHasPayments) {
				return &PaymentsError{LateFee: true}
			}
			if err != nil {
				return err
			}
			err = s.charges.CancelChargeInTx(ctx, tx, *v.FineChargeID, p.UserID)
			switch {
			case errors.Is(err, expenses.ErrHasPayments):
				return &PaymentsError{}
			case err != nil && !errors.Is(err, expenses.ErrNotFound):
				return err
			}
		}
		v.Status, v.UpdatedAt = to, s.now()
		if note != "" {
			v.Note = note
		}
		if err := s.store.updateStatus(ctx, tx, v); err != nil {
			return err
		}
		out = v
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "violation", RecordID: v.ID.String(),
			WorkspaceID: prop.WorkspaceID, Changes: activity.Diff(before, toJSON(v))})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func idsJSON(ids []uuid.UUID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	b, _ := json.Marshal(s)
	return string(b)
}
