package notices

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/receipts"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// receiptArgs is the job that sends a payment's receipt: inserted in the
// transaction that posts the payment, so a payment rolled back sends
// nothing and a posted one always does, after its receipt is numbered.
type receiptArgs struct {
	PaymentID  string `json:"payment_id"`
	ContractID string `json:"contract_id"`
}

func (receiptArgs) Kind() string { return "notice_receipt" }

// listener is told of payments (payments.Listener) and rent changes
// (contracts.RentListener). Its service is set once fx has built it: the
// service needs the contracts service, which needs its listeners first.
type listener struct{ svc *Service }

func newListener() *listener { return &listener{} }

func bindListener(l *listener, svc *Service) { l.svc = svc }

func newPaymentListener(l *listener) payments.Listener { return l }

func newRentListener(l *listener) contracts.RentListener { return l }

// PaymentPosted queues the receipt notice of a contract's payment; a
// payment without a contract has no tenant to write to.
//
// A payment that leaves nothing of the contract overdue ends its dunning
// ladder at once, in the payment's transaction: a new arrear, even the
// next day's, starts at step 1.
func (l *listener) PaymentPosted(ctx context.Context, tx bun.IDB, p payments.PostedPayment) error {
	if p.Payment.ContractID == nil {
		return nil
	}
	overdue, err := expenses.Overdue(ctx, tx, p.Payment.PropertyID, *p.Payment.ContractID, period.DateOf(l.svc.clock.Now()))
	if err != nil {
		return err
	}
	if overdue == 0 {
		if err := l.svc.store.release(ctx, tx, []uuid.UUID{*p.Payment.ContractID}); err != nil {
			return err
		}
	}
	_, err = l.svc.queue.Insert(ctx, tx, receiptArgs{PaymentID: p.Payment.ID.String(), ContractID: p.Payment.ContractID.String()},
		&river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}})
	return err
}

// PaymentsPosted is PaymentPosted for a batch of payments
// (payments.PostManyTx): the overdue amounts read, the dunning released
// and the receipts' mails queued in a few statements for the batch.
func (l *listener) PaymentsPosted(ctx context.Context, tx bun.IDB, list []payments.PostedPayment) error {
	var ids []uuid.UUID
	seen := map[uuid.UUID]bool{}
	var jobs []river.InsertManyParams
	for _, p := range list {
		c := p.Payment.ContractID
		if c == nil {
			continue
		}
		if !seen[*c] {
			seen[*c] = true
			ids = append(ids, *c)
		}
		jobs = append(jobs, river.InsertManyParams{Args: receiptArgs{PaymentID: p.Payment.ID.String(), ContractID: c.String()},
			InsertOpts: &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}})
	}
	if len(ids) == 0 {
		return nil
	}
	overdue, err := expenses.OverdueOf(ctx, tx, ids, period.DateOf(l.svc.clock.Now()))
	if err != nil {
		return err
	}
	var settled []uuid.UUID
	for _, id := range ids {
		if overdue[id] == 0 {
			settled = append(settled, id)
		}
	}
	if len(settled) > 0 {
		if err := l.svc.store.release(ctx, tx, settled); err != nil {
			return err
		}
	}
	btx, ok := tx.(bun.Tx)
	if !ok {
		for _, j := range jobs {
			if _, err := l.svc.queue.Insert(ctx, tx, j.Args, j.InsertOpts); err != nil {
				return err
			}
		}
		return nil
	}
	return l.svc.queue.InsertMany(ctx, btx, jobs)
}

// PaymentReversed sends nothing: the receipt already sent stays true of
// what was received, and the receipt's void is the landlord's to explain.
func (l *listener) PaymentReversed(context.Context, bun.IDB, *payments.Payment) error { return nil }

// RentChanged writes the tenant of the new rent in the transaction that
// records it, once per contract and first day.
func (l *listener) RentChanged(ctx context.Context, tx bun.Tx, c *contracts.Contract, amount money.Amount, from period.Date, ix *contracts.Index) error {
	s := l.svc
	ws, err := s.store.workspace(ctx, tx, c.WorkspaceID)
	if err != nil {
		return err
	}
	own, err := s.store.contract(ctx, tx, c.ID)
	if err != nil {
		return err
	}
	if !own.On(ws, RentChange) {
		return nil
	}
	lt, err := s.letterFor(ctx, tx, c)
	if err != nil {
		return err
	}
	first := lt.st.Date(from)
	before := "-"
	if c.RentMinor != nil {
		before = lt.st.Money(money.Amount(*c.RentMinor), c.Currency)
	}
	paragraphs := []string{fmt.Sprintf(lt.w.RentChangeBody, first, lt.st.Money(amount, c.Currency), before)}
	if ix != nil {
		paragraphs = append(paragraphs, fmt.Sprintf(lt.w.RentChangeIndex, ix.Name, lt.st.Decimal(ix.OldValue), lt.st.Named(ix.OldPeriod),
			lt.st.Decimal(ix.NewValue), lt.st.Named(ix.NewPeriod), lt.st.Decimal(ix.Percent())))
	}
	n := messages.Notice{Kind: RentChange, Subject: c.ID, Step: from.String(), ContractID: c.ID,
		Title: fmt.Sprintf(lt.w.RentChangeSubject, first),
		Body:  lt.body(paragraphs...)}
	_, _, err = s.messages.Notify(ctx, tx, n)
	return err
}

// receiptWorker sends a receipt notice with the receipt's PDF, stored as a
// document of the contract.
type receiptWorker struct {
	river.WorkerDefaults[receiptArgs]
	svc *Service
}

// errSentBefore rolls back the work of a receipt notice that another
// attempt or instance wrote meanwhile.
var errSentBefore = errors.New("notices: receipt sent before")

func (w *receiptWorker) Work(ctx context.Context, job *river.Job[receiptArgs]) error {
	s := w.svc
	paymentID, err1 := uuid.Parse(job.Args.PaymentID)
	contractID, err2 := uuid.Parse(job.Args.ContractID)
	if err := errors.Join(err1, err2); err != nil {
		return river.JobCancel(fmt.Errorf("notices: bad receipt job: %w", err))
	}
	key := messages.Notice{Kind: Receipt, Subject: paymentID}.Key()
	if done, err := s.messages.Noticed(ctx, s.db, []string{key}); err != nil || done[key] {
		return err
	}
	c, err := s.contracts.ByID(ctx, s.db, contractID)
	if errors.Is(err, contracts.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	ws, err := s.store.workspace(ctx, s.db, c.WorkspaceID)
	if err != nil {
		return err
	}
	own, err := s.store.contract(ctx, s.db, c.ID)
	if err != nil || !own.On(ws, Receipt) {
		return err
	}
	r, err := s.receipts.OfPayment(ctx, paymentID)
	if errors.Is(err, receipts.ErrNotFound) {
		return nil // the payment was deleted with its property
	}
	if err != nil {
		return err
	}
	if r.Status != receipts.Issued {
		return nil // reversed before the notice went out
	}
	// The mail names the form the PDF is: a rent receipt (quittance) for
	// a payment that settled its month, a receipt (reçu) otherwise.
	quittance, err := s.settlesMonth(ctx, paymentID)
	if err != nil {
		return err
	}
	pdf, err := s.forms.ReceiptJob(ctx, s.source, auth.InWorkspace(c.WorkspaceID, c.OwnerID), r.ID.String(), c.Locale)
	if err != nil {
		return err
	}
	data, err := pdf.Render()
	if err != nil {
		return err
	}
	blob, err := s.files.Put(ctx, pdf.Filename, bytes.NewReader(data))
	if err != nil {
		return err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		lt, err := s.letterFor(ctx, tx, c)
		if err != nil {
			return err
		}
		day := lt.st.Date(period.DateOf(r.IssuedAt))
		subject, body := lt.w.ReceiptSubject, lt.w.ReceiptBody
		if p, err := s.payment(ctx, tx, paymentID); err == nil {
			day = lt.st.Date(p.PaidOn)
			if p.Method == payments.SetOff {
				subject, body = lt.w.SetOffSubject, lt.w.SetOffBody
			} else if quittance {
				subject, body = lt.w.QuittanceSubject, lt.w.QuittanceBody
			}
		}
		doc, err := s.files.Insert(ctx, tx, documents.NewFile{WorkspaceID: c.WorkspaceID, PropertyID: c.PropertyID,
			ContractID: &c.ID, Title: fmt.Sprintf(subject, r.Number), Category: "receipt", UploadedBy: c.OwnerID}, blob)
		if err != nil {
			return err
		}
		paid := lt.st.Money(r.Amount, r.Currency)
		_, created, err := s.messages.Notify(ctx, tx, messages.Notice{Kind: Receipt, Subject: paymentID, ContractID: c.ID,
			Title:       fmt.Sprintf(subject, r.Number),
			Body:        lt.body(fmt.Sprintf(body, paid, day, r.Number)),
			Attachments: []uuid.UUID{doc.ID}})
		if err == nil && !created {
			return errSentBefore
		}
		return err
	})
	if err != nil {
		s.files.Discard(blob)
		if errors.Is(err, errSentBefore) {
			return nil
		}
	}
	return err
}

// settlesMonth asks the payments module whether the payment settled its
// month's rent and charges.
func (s *Service) settlesMonth(ctx context.Context, paymentID uuid.UUID) (bool, error) {
	p, err := s.payments.Read(ctx, s.db, paymentID)
	if err != nil {
		return false, err
	}
	return s.payments.SettlesMonth(ctx, p)
}

// payment reads the day the payment was made and how (a set-off is
// written to as one).
func (s *Service) payment(ctx context.Context, tx bun.Tx, paymentID uuid.UUID) (*payments.Payment, error) {
	return s.payments.Read(ctx, tx, paymentID)
}

func registerWorker(q *jobs.Queue, svc *Service) {
	jobs.Register(q, &receiptWorker{svc: svc})
	jobs.Register(q, &terminationWorker{svc: svc})
}
