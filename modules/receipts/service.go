package receipts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
)

// Service issues, lists and voids receipts. It is a payments.Listener:
// a receipt is issued and voided inside the payment's transaction.
type Service struct {
	db    *bun.DB
	clock clock.Clock
	props *properties.Service
}

// NewService returns the service.
func NewService(db *bun.DB, clk clock.Clock, props *properties.Service) *Service {
	return &Service{db: db, clock: clk, props: props}
}

// PaymentPosted issues the payment's receipt with the owner's next number
// of the year. The sequence row is taken with one upsert, which locks it
// until tx ends: concurrent payments of one owner get consecutive numbers,
// and a payment rolled back gives its number back. All of one owner's
// payments queue on that row, so it is taken as late as it can be: the
// receipt is written by a step that runs just before the commit, when the
// rest of the transaction's work is done.
func (s *Service) PaymentPosted(ctx context.Context, tx bun.IDB, ev payments.PostedPayment) error {
	p := ev.Payment
	now := s.now()
	id, err := uuid.NewV7()
	if err != nil {
		return fmt.Errorf("receipt id: %w", err)
	}
	// What the receipt shows is the payment as posted now; later work of the
	// same transaction (credit given to new charges) does not change it.
	r := &Receipt{
		ID: id, WorkspaceID: ev.WorkspaceID, OwnerID: p.OwnerID, PropertyID: p.PropertyID, PaymentID: p.ID, Year: now.Year(),
		IssuedAt: now, Amount: p.Amount, Currency: p.Currency,
		Payer: ev.PayerName, Lines: ev.Lines, Credit: p.Unallocated, Status: Issued, UpdatedAt: now,
	}
	if r.Lines == nil {
		r.Lines = []payments.Line{}
	}
	err = database.BeforeCommit(ctx, func(ctx context.Context, tx bun.Tx) error { return issue(ctx, tx, r) })
	if err != nil {
		// A transaction not opened by database.RunInTx has no last step.
		return issue(ctx, tx, r)
	}
	return nil
}

// PaymentsPosted issues the receipts of a batch of payments (a bank
// statement's, payments.PostManyTx): each owner's numbers are taken as one
// range with one upsert, and the receipts written a few hundred a
// statement, just before the commit as PaymentPosted does.
func (s *Service) PaymentsPosted(ctx context.Context, tx bun.IDB, list []payments.PostedPayment) error {
	now := s.now()
	rs := make([]Receipt, len(list))
	for i, ev := range list {
		p := ev.Payment
		id, err := uuid.NewV7()
		if err != nil {
			return fmt.Errorf("receipt id: %w", err)
		}
		rs[i] = Receipt{
			ID: id, WorkspaceID: ev.WorkspaceID, OwnerID: p.OwnerID, PropertyID: p.PropertyID, PaymentID: p.ID, Year: now.Year(),
			IssuedAt: now, Amount: p.Amount, Currency: p.Currency,
			Payer: ev.PayerName, Lines: ev.Lines, Credit: p.Unallocated, Status: Issued, UpdatedAt: now,
		}
		if rs[i].Lines == nil {
			rs[i].Lines = []payments.Line{}
		}
	}
	err := database.BeforeCommit(ctx, func(ctx context.Context, tx bun.Tx) error { return issueMany(ctx, tx, rs) })
	if err != nil {
		return issueMany(ctx, tx, rs)
	}
	return nil
}

// PaymentReversed voids the payment's receipt, keeping when and why.
func (s *Service) PaymentReversed(ctx context.Context, tx bun.IDB, p *payments.Payment) error {
	return voidOfPayment(ctx, tx, p.ID, p.ReversedAt, p.ReversalReason, s.now())
}

// ErrNotFound is what a receipt of another property, or none, answers to
// another module: test it with errors.Is.
var ErrNotFound = errors.New("receipt not found")

func errNoReceipt() error { return fault.NotFound("Receipt not found.").Because(ErrNotFound) }

// Authorize returns the receipt with the raw id when who may see it (the
// owner, or an admin): 404 for a malformed or unknown id, 403 for another
// owner's. The print forms reach receipts by id through it.
func (s *Service) Authorize(ctx context.Context, who auth.Principal, rawID string) (*Receipt, error) {
	r, err := s.byRawID(ctx, rawID)
	if err != nil {
		return nil, err
	}
	if r.WorkspaceID != who.WorkspaceID && !who.IsAdmin() {
		return nil, auth.Refuse(ctx, who, "This receipt belongs to another user.", "Receipt not found.")
	}
	return r, nil
}

// Receipt returns the receipt with the raw id under prop.
func (s *Service) Receipt(ctx context.Context, prop *properties.Property, rawID string) (*Receipt, error) {
	r, err := s.byRawID(ctx, rawID)
	if err != nil {
		return nil, err
	}
	if r.PropertyID != prop.ID {
		return nil, errNoReceipt()
	}
	return r, nil
}

func (s *Service) byRawID(ctx context.Context, rawID string) (*Receipt, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNoReceipt()
	}
	r, err := receiptBy(ctx, s.db, "id", id)
	if err == nil && r == nil {
		return nil, errNoReceipt()
	}
	return r, err
}

// List returns a page of prop's receipts, newest first.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Receipt, listing.Result, error) {
	return listOfProperty(ctx, s.db, prop.ID, q)
}

// ListForContract returns a page of prop's receipts of payments for the
// contract, newest first.
func (s *Service) ListForContract(ctx context.Context, prop *properties.Property, contractID uuid.UUID, q listing.Query) ([]Receipt, listing.Result, error) {
	return listOfContract(ctx, s.db, prop.ID, contractID, q)
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// OfPayment returns the receipt of the payment (a 404 when
// the payment has none).
func (s *Service) OfPayment(ctx context.Context, paymentID uuid.UUID) (*Receipt, error) {
	r, err := receiptBy(ctx, s.db, "payment_id", paymentID)
	if err == nil && r == nil {
		return nil, errNoReceipt()
	}
	return r, err
}
