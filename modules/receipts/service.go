package receipts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
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

// issueMany numbers the receipts, each owner's in their order, with one
// upsert an owner, and stores them.
func issueMany(ctx context.Context, tx bun.IDB, rs []Receipt) error {
	if len(rs) == 0 {
		return nil
	}
	byOwner := map[int64][]int{}
	var owners []int64
	for i := range rs {
		if _, ok := byOwner[rs[i].OwnerID]; !ok {
			owners = append(owners, rs[i].OwnerID)
		}
		byOwner[rs[i].OwnerID] = append(byOwner[rs[i].OwnerID], i)
	}
	for _, owner := range owners {
		idx := byOwner[owner]
		n := int64(len(idx))
		year := rs[idx[0]].Year
		var last int64
		err := database.Query(ctx, tx, tx.NewRaw(`INSERT INTO receipt_sequences (owner_id, year, last) VALUES (?, ?, ?)
			ON CONFLICT (owner_id, year) DO UPDATE SET last = receipt_sequences.last + ?
			RETURNING last`, database.Param{V: owner}, database.Param{V: year}, database.Param{V: n}, database.Param{V: n}), &last)
		if err != nil {
			return fmt.Errorf("receipt numbers: %w", err)
		}
		for k, i := range idx {
			rs[i].Seq = int(last - n + int64(k) + 1)
			if err := checkSeq(&rs[i]); err != nil {
				return err
			}
			rs[i].Number = fmt.Sprintf("%04d-%06d", rs[i].Year, rs[i].Seq)
		}
	}
	for start := 0; start < len(rs); start += 500 {
		batch := rs[start:min(start+500, len(rs))]
		if _, err := database.Exec(ctx, tx, tx.NewInsert().Model(&batch)); err != nil {
			return fmt.Errorf("insert receipts: %w", err)
		}
	}
	return nil
}

// issue numbers r with its owner's next number of the year and stores it.
// On PostgreSQL one statement does both, so the number's row is held for
// that statement and the commit only.
func issue(ctx context.Context, tx bun.IDB, r *Receipt) error {
	next := tx.NewRaw(`INSERT INTO receipt_sequences (owner_id, year, last) VALUES (?, ?, 1)
		ON CONFLICT (owner_id, year) DO UPDATE SET last = receipt_sequences.last + 1
		RETURNING last`, database.Param{V: r.OwnerID}, database.Param{V: r.Year})
	if database.IsPostgres(tx) {
		err := database.Query(ctx, tx, tx.NewInsert().With("next_seq", next).Model(r).
			Value("seq", "(SELECT last FROM next_seq)").
			Value("number", "? || lpad((SELECT last FROM next_seq)::text, 6, '0')", fmt.Sprintf("%04d-", r.Year)).
			Returning("seq, number"), r)
		if err != nil {
			return fmt.Errorf("insert receipt: %w", err)
		}
		return checkSeq(r)
	}
	if err := database.Query(ctx, tx, next, &r.Seq); err != nil {
		return fmt.Errorf("receipt number: %w", err)
	}
	if err := checkSeq(r); err != nil {
		return err
	}
	r.Number = fmt.Sprintf("%04d-%06d", r.Year, r.Seq)
	if _, err := database.Exec(ctx, tx, tx.NewInsert().Model(r)); err != nil {
		return fmt.Errorf("insert receipt: %w", err)
	}
	return nil
}

// checkSeq refuses a seventh digit: the number has room for six.
func checkSeq(r *Receipt) error {
	if r.Seq > 999999 {
		return fmt.Errorf("receipt number: owner %d issued a million receipts in %d", r.OwnerID, r.Year)
	}
	return nil
}

// PaymentReversed voids the payment's receipt, keeping when and why.
func (s *Service) PaymentReversed(ctx context.Context, tx bun.IDB, p *payments.Payment) error {
	_, err := database.Exec(ctx, tx, tx.NewUpdate().Model((*Receipt)(nil)).
		Set("status = ?", Void).Set("voided_at = ?", p.ReversedAt).Set("void_reason = ?", p.ReversalReason).
		Set("updated_at = ?", s.now()).
		Where("payment_id = ?", p.ID).Where("status = ?", Issued))
	if err != nil {
		return fmt.Errorf("void receipt: %w", err)
	}
	return nil
}

// ErrNotFound is what a receipt of another property, or none, answers to
// another module: test it with errors.Is.
var ErrNotFound = errors.New("receipt not found")

func errNoReceipt() error { return apierror.NotFound("Receipt not found.").Because(ErrNotFound) }

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
	r := new(Receipt)
	err = database.Select(ctx, s.db, s.db.NewSelect().Model(r).Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoReceipt()
	}
	if err != nil {
		return nil, fmt.Errorf("receipt by id: %w", err)
	}
	return r, nil
}

// List returns a page of prop's receipts, newest first.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]Receipt, listing.Result, error) {
	var list []Receipt
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", prop.ID)
	if v := q.Get("status"); v != "" {
		sel = sel.Where("status = ?", v)
	}
	total, err := listing.Scan(ctx, sel, q, listing.Desc("issued_at", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list receipts: %w", err)
	}
	return list, total, nil
}

// ListForContract returns a page of prop's receipts of payments for the
// contract, newest first.
func (s *Service) ListForContract(ctx context.Context, prop *properties.Property, contractID uuid.UUID, q listing.Query) ([]Receipt, listing.Result, error) {
	var list []Receipt
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", prop.ID).
		Where("payment_id IN (SELECT id FROM payments WHERE property_id = ? AND contract_id = ?)", prop.ID, contractID)
	total, err := listing.Scan(ctx, sel, q, listing.Desc("issued_at", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list receipts of contract: %w", err)
	}
	return list, total, nil
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// OfPayment returns the receipt of the payment (a 404 when
// the payment has none).
func (s *Service) OfPayment(ctx context.Context, paymentID uuid.UUID) (*Receipt, error) {
	r := new(Receipt)
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(r).Where("payment_id = ?", paymentID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoReceipt()
	}
	if err != nil {
		return nil, fmt.Errorf("receipt of payment: %w", err)
	}
	return r, nil
}
