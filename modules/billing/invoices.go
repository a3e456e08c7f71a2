package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/period"
)

// Kind is the daily billing run of a workspace (jobs.Periodic; its own
// name, "invoices", since "billing" is the expenses module's charges): it
// ends a trial whose time is up, issues the invoice of the month before
// once (on the 1st, or the first run after it), charges it, reminds the
// owner of a failed payment and makes the workspace read-only after the
// grace period. Every step is keyed (one invoice per workspace and month,
// one reminder per step), so a second run of a day changes nothing.
func Kind(s *Service) jobs.Kind {
	return jobs.Kind{Name: "invoices", At: "05:00", Run: s.run}
}

func (s *Service) run(ctx context.Context, run jobs.Run) (map[string]int, []string, error) {
	counts := map[string]int{"invoices": 0, "charged": 0, "reminders": 0, "errors": 0}
	var problems []string
	today, err := period.ParseDate(run.LocalDate)
	if err != nil {
		return counts, nil, fmt.Errorf("invoices: run date %q: %w", run.LocalDate, err)
	}
	now := s.now()
	var sub *Subscription
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if sub, err = s.lockSubscription(ctx, tx, run.WorkspaceID); err != nil {
			return err
		}
		if s.endTrial(sub, now) {
			return s.save(ctx, tx, sub)
		}
		return nil
	})
	if err != nil {
		return counts, nil, err
	}
	month := time.Date(today.Time().Year(), today.Time().Month(), 1, 0, 0, 0, 0, time.UTC)
	if sub.Plan == PlanPro && (sub.Status == Active || sub.Status == PastDue) && sub.BilledFrom != nil && sub.BilledFrom.Before(month) {
		inv, created, err := s.issue(ctx, run.WorkspaceID, month.AddDate(0, -1, 0))
		if err != nil {
			return counts, problems, err
		}
		if created {
			counts["invoices"]++
		}
		if inv != nil && inv.Status == InvoiceOpen && inv.PaymentIntent == nil && inv.Failures == 0 {
			if err := s.Pay(ctx, run.WorkspaceID, inv.ID); err != nil {
				counts["errors"]++
				problems = append(problems, fmt.Sprintf("invoice %s: %v", inv.Number, err))
			} else {
				counts["charged"]++
			}
		}
	}
	n, err := s.dunning(ctx, run.WorkspaceID, now)
	counts["reminders"] += n
	return counts, problems, err
}

// issue writes the invoice of the month starting at month (UTC midnight of
// its 1st) for the workspace, once: the existing one when there is one
// (created false). A workspace with no property in use gets none.
func (s *Service) issue(ctx context.Context, workspaceID int64, month time.Time) (*Invoice, bool, error) {
	label := month.Format("2006-01")
	var out *Invoice
	created := false
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		sub, err := s.lockSubscription(ctx, tx, workspaceID)
		if err != nil {
			return err
		}
		existing, err := s.store.invoiceByPeriod(ctx, tx, workspaceID, label)
		if err == nil {
			out = existing
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		// Units in use now that existed before the month ended: one
		// unit-month each (whole months; no share of a month).
		units, err := s.store.billableUnits(ctx, tx, workspaceID, month.AddDate(0, 1, 0))
		if err != nil {
			return err
		}
		if len(units) == 0 {
			return nil
		}
		id, err := uuid.NewV7()
		if err != nil {
			return err
		}
		now := s.now()
		inv := &Invoice{ID: id, WorkspaceID: workspaceID, Issuer: s.cfg.Issuer, Year: now.Year(), Period: label,
			Status: InvoiceOpen, Currency: s.cfg.Currency, IssuedAt: now, VATID: sub.VATID, Customer: s.customer(ctx, tx, sub)}
		inv.Country = s.cfg.IssuerCountry
		if sub.Country != nil {
			inv.Country = *sub.Country
		}
		for i, u := range units {
			inv.Lines = append(inv.Lines, Line{InvoiceID: id, Position: i + 1, Description: "Pro plan, property " + u.Name,
				Period: label, Quantity: 1, UnitPrice: s.cfg.price, Amount: s.cfg.price})
			inv.Net += s.cfg.price
		}
		// Credits waiting (a partner's reward), oldest first, as far as
		// the month's amount goes; the rest waits for the next invoice.
		credits, err := s.store.waitingCredits(ctx, tx, workspaceID)
		if err != nil {
			return err
		}
		var used []uuid.UUID
		for _, c := range credits {
			if c.Amount > inv.Net-inv.Credit {
				break
			}
			inv.Credit += c.Amount
			inv.Lines = append(inv.Lines, Line{InvoiceID: id, Position: len(inv.Lines) + 1, Description: "Credit: " + c.Reason,
				Period: label, Quantity: 1, UnitPrice: -c.Amount, Amount: -c.Amount})
			used = append(used, c.ID)
		}
		vat := treatment(s.cfg.IssuerCountry, inv.Country, deref(sub.VATID))
		inv.ReverseCharge = vat.ReverseCharge
		inv.VATRate = rateString(vat.RateBP)
		taxable := inv.Net - inv.Credit
		inv.VAT = vatOf(taxable, vat.RateBP)
		inv.Total = taxable + inv.VAT
		if inv.Total == 0 {
			inv.Status, inv.PaidAt = InvoicePaid, &now
		}
		if inv.Seq, err = s.store.nextNumber(ctx, tx, inv.Issuer, inv.Year); err != nil {
			return err
		}
		inv.Number = fmt.Sprintf("%s-%d-%06d", inv.Issuer, inv.Year, inv.Seq)
		if err := s.store.insertInvoice(ctx, tx, inv, used); err != nil {
			return err
		}
		out, created = inv, true
		return nil
	})
	if err != nil && database.IsUniqueViolation(err) {
		// Another run issued it first.
		inv, gerr := s.store.invoiceByPeriod(ctx, s.db, workspaceID, label)
		return inv, false, gerr
	}
	return out, created, err
}

// customer is the name an invoice is addressed to: the billing profile's
// company, else the workspace's name.
func (s *Service) customer(ctx context.Context, tx bun.Tx, sub *Subscription) string {
	if sub.Company != nil {
		return *sub.Company
	}
	name, _, err := s.store.workspace(ctx, tx, sub.WorkspaceID)
	if err != nil || name == "" {
		return fmt.Sprintf("Workspace %d", sub.WorkspaceID)
	}
	return name
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Pay charges an open invoice of the workspace now with its payment
// method. A decline makes the subscription past due; a payment Stripe
// confirms later arrives by webhook.
func (s *Service) Pay(ctx context.Context, workspaceID int64, invoiceID uuid.UUID) error {
	inv, err := s.Invoice(ctx, workspaceID, invoiceID)
	if err != nil {
		return err
	}
	if inv.Status != InvoiceOpen {
		return nil
	}
	sub, err := s.subscription(ctx, s.db, workspaceID)
	if err != nil {
		return err
	}
	intent, result, err := s.pay.charge(ctx, inv, sub)
	if err != nil {
		return err
	}
	switch result {
	case paid:
		return s.markPaid(ctx, s.db, inv.ID, intent, 0)
	case declined:
		return s.markFailed(ctx, s.db, inv.ID, intent, 0)
	default:
		if intent != "" {
			return s.store.setIntent(ctx, inv.ID, intent)
		}
		return nil
	}
}

// markPaid marks an open invoice paid (once: a paid one is left alone,
// whatever arrives after); with no invoice of the workspace left open the
// subscription is active again and writable.
func (s *Service) markPaid(ctx context.Context, db bun.IDB, invoiceID uuid.UUID, intent string, eventAt int64) error {
	var workspace int64
	lifted := false
	err := database.RunInTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
		inv, err := s.store.invoice(ctx, tx, 0, invoiceID)
		if err != nil {
			return err
		}
		sub, err := s.lockSubscription(ctx, tx, inv.WorkspaceID)
		if err != nil {
			return err
		}
		workspace = inv.WorkspaceID
		changed, err := s.store.markPaid(ctx, tx, invoiceID, intent, max(eventAt, inv.LastEvent), s.now())
		if err != nil || !changed {
			return err
		}
		earlier, err := s.store.paidBefore(ctx, tx, inv.WorkspaceID, invoiceID)
		if err != nil {
			return err
		}
		open, err := s.store.anyOpen(ctx, tx, inv.WorkspaceID)
		if err != nil {
			return err
		}
		if !open && (sub.Status == PastDue || sub.ReadOnly) {
			if sub.Status == PastDue {
				sub.Status = Active
			}
			sub.PastDueSince, sub.ReadOnly, lifted = nil, false, true
			if err := s.save(ctx, tx, sub); err != nil {
				return err
			}
		}
		for _, l := range s.listeners {
			if err := l.InvoicePaid(ctx, tx, inv.WorkspaceID, inv.ID, !earlier && inv.Total > 0); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && lifted {
		s.markReadOnly(workspace, false)
	}
	return err
}

// markFailed records a failed payment of an open invoice: the subscription
// is past due from now (unless it already was). A failure older than the
// last event applied to the invoice changes nothing (events arrive in any
// order).
func (s *Service) markFailed(ctx context.Context, db bun.IDB, invoiceID uuid.UUID, intent string, eventAt int64) error {
	return database.RunInTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
		inv, err := s.store.invoice(ctx, tx, 0, invoiceID)
		if err != nil {
			return err
		}
		sub, err := s.lockSubscription(ctx, tx, inv.WorkspaceID)
		if err != nil {
			return err
		}
		if inv.Status != InvoiceOpen || eventAt != 0 && eventAt < inv.LastEvent {
			return nil
		}
		if err := s.store.countFailure(ctx, tx, invoiceID, intent, max(eventAt, inv.LastEvent)); err != nil {
			return err
		}
		if sub.Status == Active || sub.Status == Trialing {
			now := s.now()
			sub.Status = PastDue
			if sub.PastDueSince == nil {
				sub.PastDueSince = &now
			}
			return s.save(ctx, tx, sub)
		}
		return nil
	})
}

// dunning reminds the owner of a past-due workspace on each reminder day
// (once per step) and makes it read-only once the grace period is over.
func (s *Service) dunning(ctx context.Context, workspaceID int64, now time.Time) (int, error) {
	sub, err := s.subscription(ctx, s.db, workspaceID)
	if err != nil || sub.Status != PastDue || sub.PastDueSince == nil {
		return 0, err
	}
	days := int(now.Sub(*sub.PastDueSince) / (24 * time.Hour))
	step := 0
	for i, d := range s.cfg.Reminders {
		if days >= d {
			step = i + 1
		}
	}
	sent := 0
	open, err := s.store.openInvoices(ctx, workspaceID)
	if err != nil {
		return 0, err
	}
	for i := range open {
		inv := &open[i]
		if inv.Reminders >= step {
			continue
		}
		// Counted first: a reminder is sent at most once per step, even
		// when the mail fails (the next step tries again).
		raised, err := s.store.raiseReminders(ctx, inv.ID, step)
		if err != nil {
			return sent, err
		}
		if !raised {
			continue
		}
		if err := s.remind(ctx, workspaceID, inv); err != nil {
			s.log.Warn("billing: reminder not sent", "invoice", inv.Number, "error", err)
			continue
		}
		sent++
	}
	if !sub.ReadOnly && now.Sub(*sub.PastDueSince) >= s.cfg.Grace {
		if err := s.store.setReadOnly(ctx, workspaceID, now); err != nil {
			return sent, err
		}
		s.markReadOnly(workspaceID, true)
	}
	return sent, nil
}

// remind mails the workspace's landlord about an unpaid invoice.
func (s *Service) remind(ctx context.Context, workspaceID int64, inv *Invoice) error {
	_, landlord, err := s.store.workspace(ctx, s.db, workspaceID)
	if err != nil {
		return err
	}
	u, err := s.accounts.User(ctx, landlord)
	if err != nil {
		return err
	}
	grace := int(s.cfg.Grace / (24 * time.Hour))
	return s.mailer.Send(ctx, mail.Message{To: u.Email,
		Subject: "Payment reminder: propman invoice " + inv.Number,
		Text: fmt.Sprintf("Hello %s,\n\nthe payment of invoice %s (%s %s) failed. Please pay it or add another payment method "+
			"under Billing. %d days after the first failed payment the workspace becomes read-only until it is paid.\n",
			u.Name, inv.Number, inv.Total.String(), inv.Currency, grace)})
}

// Invoice returns the workspace's invoice with its lines.
func (s *Service) Invoice(ctx context.Context, workspaceID int64, id uuid.UUID) (*Invoice, error) {
	inv, err := s.store.invoice(ctx, s.db, workspaceID, id)
	if err != nil {
		return nil, err
	}
	if err := s.store.lines(ctx, s.db, inv); err != nil {
		return nil, err
	}
	return inv, nil
}

// Invoices returns one page of the workspace's invoices, newest first,
// filtered by status.
func (s *Service) Invoices(ctx context.Context, workspaceID int64, q listing.Query) ([]Invoice, listing.Result, error) {
	return s.store.invoices(ctx, workspaceID, q)
}

var errInvoiceNotFound = errors.New("billing: invoice not found")
