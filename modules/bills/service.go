package bills

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/documents"
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

// Service holds the rules of bills and books each one in the journal.
type Service struct {
	db         *bun.DB
	store      *Store
	clock      clock.Clock
	journal    *journal.Journal
	properties *properties.Service
	suppliers  *contragents.Service
	documents  *documents.Files
}

// NewService returns the service.
func NewService(db *bun.DB, store *Store, clk clock.Clock, j *journal.Journal, props *properties.Service,
	suppliers *contragents.Service, docs *documents.Files) *Service {
	return &Service{db: db, store: store, clock: clk, journal: j, properties: props, suppliers: suppliers, documents: docs}
}

// Property returns the property with the raw id when p may see it (403 or
// 404 otherwise): every route under a property starts here.
func (s *Service) Property(ctx context.Context, p auth.Principal, rawID string) (*properties.Property, error) {
	return s.properties.Authorize(ctx, p, rawID)
}

func errNoBill() error { return fault.NotFound("Bill not found.") }

// Get returns the property's bill with the raw id.
func (s *Service) Get(ctx context.Context, prop *properties.Property, rawID string) (*Bill, error) {
	id, err := uuid.Parse(rawID)
	if err != nil {
		return nil, errNoBill()
	}
	b, err := s.store.byID(ctx, s.db, prop.ID, id)
	if errors.Is(err, errNotFound) {
		return nil, errNoBill()
	}
	return b, err
}

// List returns a page of the bills of p's workspace.
func (s *Service) List(ctx context.Context, p *auth.Principal, q listing.Query) ([]Bill, listing.Result, error) {
	return s.store.list(ctx, p, q)
}

// ListProperty returns a page of the property's bills.
func (s *Service) ListProperty(ctx context.Context, prop *properties.Property, q listing.Query) ([]Bill, listing.Result, error) {
	return s.store.listProperty(ctx, prop.ID, q)
}

// Create records a bill of the property, with its journal entries, in one
// transaction.
func (s *Service) Create(ctx context.Context, p auth.Principal, prop *properties.Property, in Input) (*Bill, error) {
	now := s.now()
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("bill id: %w", err)
	}
	b := &Bill{ID: id, WorkspaceID: prop.WorkspaceID, OwnerID: prop.OwnerID, PropertyID: prop.ID, Currency: prop.Currency,
		CreatedAt: now, UpdatedAt: now}
	for _, f := range in.missing() {
		in.details = append(in.details, f+": is required")
	}
	if err := s.apply(ctx, p, prop, b, &in); err != nil {
		return nil, err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		if err := s.store.insert(ctx, tx, b); err != nil {
			return err
		}
		if err := s.book(ctx, tx, b, true, true); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Created, b, nil, toJSON(b)))
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Update changes the given fields of the bill. A change of what the bill
// booked (amount, category, date) reverses its entry and books it anew;
// a change of the paid date (or of the amount of a paid bill) does the
// same with the payment's entry. Reversals are dated today, as every
// reversal of the journal.
func (s *Service) Update(ctx context.Context, p auth.Principal, prop *properties.Property, b *Bill, in Input) (*Bill, error) {
	before := *b
	if err := s.apply(ctx, p, prop, b, &in); err != nil {
		return nil, err
	}
	billChanged := b.Amount != before.Amount || b.Category != before.Category || b.BillDate != before.BillDate
	paymentChanged := b.PaidOn != before.PaidOn || (b.IsPaid() && b.Amount != before.Amount)
	b.UpdatedAt = s.now()
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		if err := s.store.update(ctx, tx, b); err != nil {
			return err
		}
		if err := s.unbook(ctx, tx, b, billChanged, paymentChanged); err != nil {
			return err
		}
		if err := s.book(ctx, tx, b, billChanged, paymentChanged); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Updated, b, toJSON(&before), toJSON(b)))
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Delete removes the bill and reverses what it booked.
func (s *Service) Delete(ctx context.Context, prop *properties.Property, b *Bill) error {
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		if err := s.unbook(ctx, tx, b, true, true); err != nil {
			return err
		}
		if err := s.store.delete(ctx, tx, b.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, entry(activity.Deleted, b, toJSON(b), nil))
	})
}

// The sources a bill's entries name: the bill itself, and its payment, so
// that a payment is reversed without the bill.
const (
	sourceBill    = "bills"
	sourcePayment = "bill_payments"
)

// book journals the bill (Dr cost account of its category, Cr bills
// payable, on its date) and, when paid, its payment (Dr bills payable, Cr
// bank, on the paid date).
func (s *Service) book(ctx context.Context, tx bun.IDB, b *Bill, bill, payment bool) error {
	prop := b.PropertyID
	var entries []journal.Entry
	if bill {
		entries = append(entries, journal.Entry{WorkspaceID: b.WorkspaceID, PropertyID: b.PropertyID, Date: b.BillDate,
			Kind: journal.KindBill, SourceTable: sourceBill, SourceID: b.ID, Memo: b.Note, Currency: b.Currency,
			Lines: []journal.Line{
				{Account: costAccount[b.Category], PropertyID: &prop, Debit: b.Amount},
				{Account: journal.BillsPayable, PropertyID: &prop, Credit: b.Amount},
			}})
	}
	if payment && b.IsPaid() {
		entries = append(entries, journal.Entry{WorkspaceID: b.WorkspaceID, PropertyID: b.PropertyID, Date: b.PaidOn,
			Kind: journal.KindBillPaid, SourceTable: sourcePayment, SourceID: b.ID, Memo: b.Note, Currency: b.Currency,
			Lines: []journal.Line{
				{Account: journal.BillsPayable, PropertyID: &prop, Debit: b.Amount},
				{Account: journal.Bank, PropertyID: &prop, Credit: b.Amount},
			}})
	}
	return s.journal.Post(ctx, tx, entries...)
}

// unbook reverses what the bill's entries booked, today.
func (s *Service) unbook(ctx context.Context, tx bun.IDB, b *Bill, bill, payment bool) error {
	today := period.DateOf(s.clock.Now())
	if payment {
		err := s.journal.Reverse(ctx, tx, journal.Reversal{WorkspaceID: b.WorkspaceID, PropertyID: b.PropertyID, Date: today,
			Kind: journal.KindReversal, SourceTable: sourcePayment, SourceID: b.ID, Memo: b.Note})
		if err != nil {
			return err
		}
	}
	if bill {
		return s.journal.Reverse(ctx, tx, journal.Reversal{WorkspaceID: b.WorkspaceID, PropertyID: b.PropertyID, Date: today,
			Kind: journal.KindReversal, SourceTable: sourceBill, SourceID: b.ID, Memo: b.Note})
	}
	return nil
}

// apply checks in and writes it into b: the fields given, then the rules
// across fields. Nothing is written to the database; every broken rule is
// one detail of a single 400.
func (s *Service) apply(ctx context.Context, p auth.Principal, prop *properties.Property, b *Bill, in *Input) error {
	details := in.details
	if in.SupplierID != nil {
		sup, err := s.suppliers.Authorize(ctx, p, *in.SupplierID)
		switch refusal(err) {
		case 0:
			if sup.WorkspaceID != prop.WorkspaceID {
				details = append(details, "supplier_id: must be a contragent of the property's workspace")
			}
			b.SupplierID = sup.ID
		case fault.KindNotFound:
			details = append(details, "supplier_id: no such contragent")
		default:
			return err
		}
	}
	if in.BillDate != nil {
		b.BillDate = *in.BillDate
		if in.DueDate == nil && b.DueDate.IsZero() {
			b.DueDate = *in.BillDate
		}
	}
	if in.DueDate != nil {
		b.DueDate = *in.DueDate
	}
	if in.PaidOn.Set {
		b.PaidOn = period.Date{}
		if in.PaidOn.Value != nil {
			b.PaidOn = *in.PaidOn.Value
		}
	}
	if in.Amount != nil {
		if *in.Amount <= 0 {
			details = append(details, "amount: must be greater than 0")
		}
		b.Amount = *in.Amount
	}
	if in.Category != nil {
		if !slices.Contains(Categories, *in.Category) {
			details = append(details, "category: must be one of "+list(Categories))
		}
		b.Category = *in.Category
	}
	if in.OperatingCategory.Set {
		b.OperatingCategory = in.OperatingCategory.Value
		if v := in.OperatingCategory.Value; v != nil && !slices.Contains(OperatingCategories, *v) {
			details = append(details, "operating_cost_category: must be one of "+list(OperatingCategories))
		}
	}
	if in.Allocable != nil {
		b.Allocable = *in.Allocable
	}
	if in.DocumentID.Set {
		b.DocumentID = nil
		if raw := in.DocumentID.Value; raw != nil {
			var found []documents.File
			id, err := uuid.Parse(*raw)
			if err == nil {
				if found, err = s.documents.OfProperty(ctx, s.db, prop.ID, []uuid.UUID{id}); err != nil {
					return err
				}
			}
			if len(found) == 1 {
				b.DocumentID = &found[0].ID
			} else {
				details = append(details, "document_id: no document of this property has this id")
			}
		}
	}
	if in.Note != nil {
		b.Note = *in.Note
	}
	details = append(details, s.vat(b, in)...)
	if !b.BillDate.IsZero() && !b.DueDate.IsZero() && b.DueDate.Before(b.BillDate) {
		details = append(details, "due_date: must not be before bill_date")
	}
	if today := period.DateOf(s.clock.Now()); b.IsPaid() && b.PaidOn.After(today) {
		details = append(details, "paid_on: must not be after today (a payment not made yet is not recorded)")
	}
	if b.Allocable && b.OperatingCategory == nil {
		details = append(details, "allocable: an allocable bill needs an operating_cost_category")
	}
	if len(details) > 0 {
		return fault.Validation(details...)
	}
	return nil
}

// vat sets the bill's VAT from the amount or the rate given (the rate is
// kept, and the amount follows it when the gross amount changes).
func (s *Service) vat(b *Bill, in *Input) []string {
	switch {
	case in.VATAmount != nil && in.VATRate != nil:
		return []string{"vat_amount: give vat_amount or vat_rate, not both"}
	case in.VATAmount != nil:
		if *in.VATAmount < 0 {
			return []string{"vat_amount: must not be negative"}
		}
		b.VAT, b.VATRate = *in.VATAmount, nil
	case in.VATRate != nil:
		if *in.VATRate < 0 || *in.VATRate > 10000 {
			return []string{"vat_rate: must be between 0 and 100"}
		}
		r := int64(*in.VATRate)
		b.VATRate = &r
	}
	if b.VATRate != nil && b.Amount > 0 {
		b.VAT = vatOf(b.Amount, *b.VATRate)
	}
	if b.Amount > 0 && b.VAT > b.Amount {
		return []string{"vat_amount: must not exceed amount"}
	}
	return nil
}

// vatOf is the VAT a gross amount contains at a rate in hundredths of a
// percent, rounded half up to the cent: gross * rate / (100 % + rate).
func vatOf(gross money.Amount, rate int64) money.Amount {
	den := 10000 + rate
	return money.Amount((2*int64(gross)*rate + den) / (2 * den))
}

func list(values []string) string { return strings.Join(values, ", ") }

// refusal is the kind of refusal err is: 0 for nil, notRefused for an
// error that is no refusal (the database...), which the caller passes on.
func refusal(err error) fault.Kind {
	if err == nil {
		return 0
	}
	if k, ok := fault.KindOf(err); ok {
		return k
	}
	return notRefused
}

// notRefused is refusal's kind of an error that is no refusal.
const notRefused fault.Kind = 255

// entry is the activity log's line of a write of b.
func entry(action string, b *Bill, before, after any) activity.Entry {
	return activity.Entry{Action: action, RecordType: "bill", RecordID: b.ID.String(), WorkspaceID: b.WorkspaceID,
		Changes: activity.Diff(before, after)}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// Supplied is a supplier's bill another module records from what it knows
// (repairs: the invoice of a work order a provider marked done). The
// caller has checked that the supplier and the document are the
// property's workspace's.
type Supplied struct {
	SupplierID uuid.UUID
	BillDate   period.Date
	// Amount is gross, more than 0; VAT the part of it that is tax.
	Amount     money.Amount
	VAT        money.Amount
	Category   string
	DocumentID *uuid.UUID
	Note       string
}

// RecordTx records, in tx (the caller's transaction, so that the bill
// exists exactly when what it comes from does), an unpaid bill of the
// property due on its date, with its journal entry, under the rules of
// Create. It takes the property's lock, as every write of bills does.
func (s *Service) RecordTx(ctx context.Context, tx bun.Tx, propertyID uuid.UUID, in Supplied) (*Bill, error) {
	var details []string
	if in.Amount <= 0 {
		details = append(details, "amount: must be greater than 0")
	}
	if in.VAT < 0 || in.VAT > in.Amount {
		details = append(details, "vat_amount: must be from 0 to the amount")
	}
	if !slices.Contains(Categories, in.Category) {
		details = append(details, "category: must be one of "+list(Categories))
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	prop, err := properties.Lock(ctx, tx, propertyID)
	if err != nil {
		return nil, err
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("bill id: %w", err)
	}
	now := s.now()
	b := &Bill{ID: id, WorkspaceID: prop.WorkspaceID, OwnerID: prop.OwnerID, PropertyID: prop.ID, SupplierID: in.SupplierID,
		BillDate: in.BillDate, DueDate: in.BillDate, Amount: in.Amount, Currency: prop.Currency, VAT: in.VAT,
		Category: in.Category, DocumentID: in.DocumentID, Note: in.Note, CreatedAt: now, UpdatedAt: now}
	if err := s.store.insert(ctx, tx, b); err != nil {
		return nil, err
	}
	if err := s.book(ctx, tx, b, true, false); err != nil {
		return nil, err
	}
	if err := activity.Record(ctx, tx, entry(activity.Created, b, nil, toJSON(b))); err != nil {
		return nil, err
	}
	return b, nil
}
