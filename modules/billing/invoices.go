package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/jobs"
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
		existing := new(Invoice)
		err = database.Select(ctx, tx, tx.NewSelect().Model(existing).
			Where("workspace_id = ?", database.Param{V: workspaceID}).Where("period = ?", label))
		if err == nil {
			out = existing
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		// Units in use now that existed before the month ended: one
		// unit-month each (whole months; no share of a month).
		var units []properties.Property
		end := month.AddDate(0, 1, 0)
		if err := database.Select(ctx, tx, tx.NewSelect().Model(&units).Column("id", "name").
			Where("workspace_id = ?", database.Param{V: workspaceID}).Where("archived_at IS NULL").
			Where("created_at < ?", end).Order("name", "id")); err != nil {
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
		var credits []credit
		if err := database.Select(ctx, tx, tx.NewSelect().Model(&credits).
			Where("workspace_id = ?", database.Param{V: workspaceID}).Where("invoice_id IS NULL").Order("created_at", "id")); err != nil {
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
		if inv.Seq, err = s.nextNumber(ctx, tx, inv.Issuer, inv.Year); err != nil {
			return err
		}
		inv.Number = fmt.Sprintf("%s-%d-%06d", inv.Issuer, inv.Year, inv.Seq)
		if _, err := database.Exec(ctx, tx, tx.NewInsert().Model(inv)); err != nil {
			return err
		}
		if _, err := database.Exec(ctx, tx, tx.NewInsert().Model(&inv.Lines)); err != nil {
			return err
		}
		if len(used) > 0 {
			if _, err := database.Exec(ctx, tx, tx.NewUpdate().Model((*credit)(nil)).Set("invoice_id = ?", id).
				Where("id ?", database.In(used))); err != nil {
				return err
			}
		}
		out, created = inv, true
		return nil
	})
	if err != nil && database.IsUniqueViolation(err) {
		// Another run issued it first.
		inv, gerr := s.invoiceByPeriod(ctx, workspaceID, label)
		return inv, false, gerr
	}
	return out, created, err
}

func (s *Service) invoiceByPeriod(ctx context.Context, workspaceID int64, label string) (*Invoice, error) {
	inv := new(Invoice)
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(inv).
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("period = ?", label))
	return inv, err
}

// nextNumber takes the next number of issuer's year in tx: the counter row
// is locked until tx ends, so numbers are handed out in commit order and a
// rolled-back invoice gives its number back (no gap).
func (s *Service) nextNumber(ctx context.Context, tx bun.Tx, issuer string, year int) (int, error) {
	if _, err := database.Exec(ctx, tx, tx.NewRaw(
		"INSERT INTO billing_counters (issuer, year, last) VALUES (?, ?, 0) ON CONFLICT (issuer, year) DO NOTHING",
		issuer, database.Param{V: year})); err != nil {
		return 0, err
	}
	var last int
	err := database.Query(ctx, tx, tx.NewRaw(
		"UPDATE billing_counters SET last = last + 1 WHERE issuer = ? AND year = ? RETURNING last",
		issuer, database.Param{V: year}), &last)
	return last, err
}

// customer is the name an invoice is addressed to: the billing profile's
// company, else the workspace's name.
func (s *Service) customer(ctx context.Context, tx bun.Tx, sub *Subscription) string {
	if sub.Company != nil {
		return *sub.Company
	}
	var name string
	if err := database.Query(ctx, tx, tx.NewRaw("SELECT name FROM workspaces WHERE id = ?", database.Param{V: sub.WorkspaceID}), &name); err != nil || name == "" {
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
			_, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model((*Invoice)(nil)).Set("payment_intent = ?", intent).
				Where("id = ?", inv.ID).Where("status = ?", InvoiceOpen))
			return err
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
		inv := new(Invoice)
		if err := database.Select(ctx, tx, tx.NewSelect().Model(inv).Where("id = ?", invoiceID)); err != nil {
			return err
		}
		sub, err := s.lockSubscription(ctx, tx, inv.WorkspaceID)
		if err != nil {
			return err
		}
		workspace = inv.WorkspaceID
		now := s.now()
		q := tx.NewUpdate().Model((*Invoice)(nil)).Set("status = ?", InvoicePaid).Set("paid_at = ?", now).
			Set("last_event = ?", database.Param{V: max(eventAt, inv.LastEvent)}).
			Where("id = ?", invoiceID).Where("status = ?", InvoiceOpen)
		if intent != "" {
			q = q.Set("payment_intent = ?", intent)
		}
		res, err := database.Exec(ctx, tx, q)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		earlier, err := database.Exists(ctx, tx, tx.NewSelect().Model((*Invoice)(nil)).
			Where("workspace_id = ?", database.Param{V: inv.WorkspaceID}).Where("status = ?", InvoicePaid).
			Where("total > 0").Where("id <> ?", invoiceID))
		if err != nil {
			return err
		}
		open, err := database.Exists(ctx, tx, tx.NewSelect().Model((*Invoice)(nil)).
			Where("workspace_id = ?", database.Param{V: inv.WorkspaceID}).Where("status = ?", InvoiceOpen))
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
		inv := new(Invoice)
		if err := database.Select(ctx, tx, tx.NewSelect().Model(inv).Where("id = ?", invoiceID)); err != nil {
			return err
		}
		sub, err := s.lockSubscription(ctx, tx, inv.WorkspaceID)
		if err != nil {
			return err
		}
		if inv.Status != InvoiceOpen || eventAt != 0 && eventAt < inv.LastEvent {
			return nil
		}
		q := tx.NewUpdate().Model((*Invoice)(nil)).Set("failures = failures + 1").
			Set("last_event = ?", database.Param{V: max(eventAt, inv.LastEvent)}).Where("id = ?", invoiceID)
		if intent != "" {
			q = q.Set("payment_intent = ?", intent)
		}
		if _, err := database.Exec(ctx, tx, q); err != nil {
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
	var open []Invoice
	if err := database.Select(ctx, s.db, s.db.NewSelect().Model(&open).Where("workspace_id = ?", database.Param{V: workspaceID}).
		Where("status = ?", InvoiceOpen).Order("id")); err != nil {
		return 0, err
	}
	for i := range open {
		inv := &open[i]
		if inv.Reminders >= step {
			continue
		}
		// Counted first: a reminder is sent at most once per step, even
		// when the mail fails (the next step tries again).
		res, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model((*Invoice)(nil)).Set("reminders = ?", database.Param{V: step}).
			Where("id = ?", inv.ID).Where("reminders < ?", database.Param{V: step}))
		if err != nil {
			return sent, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		if err := s.remind(ctx, workspaceID, inv); err != nil {
			s.log.Warn("billing: reminder not sent", "invoice", inv.Number, "error", err)
			continue
		}
		sent++
	}
	if !sub.ReadOnly && now.Sub(*sub.PastDueSince) >= s.cfg.Grace {
		if _, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model((*Subscription)(nil)).Set("read_only = ?", true).
			Set("updated_at = ?", now).Where("workspace_id = ?", database.Param{V: workspaceID}).Where("status = ?", PastDue)); err != nil {
			return sent, err
		}
		s.markReadOnly(workspaceID, true)
	}
	return sent, nil
}

// remind mails the workspace's landlord about an unpaid invoice.
func (s *Service) remind(ctx context.Context, workspaceID int64, inv *Invoice) error {
	var landlord int64
	if err := database.Query(ctx, s.db, s.db.NewRaw("SELECT landlord_id FROM workspaces WHERE id = ?", database.Param{V: workspaceID}), &landlord); err != nil {
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
	inv := new(Invoice)
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(inv).Where("id = ?", id).
		Where("workspace_id = ?", database.Param{V: workspaceID}))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errInvoiceNotFound
	}
	if err != nil {
		return nil, err
	}
	if err := database.Select(ctx, s.db, s.db.NewSelect().Model(&inv.Lines).Where("invoice_id = ?", id).Order("position")); err != nil {
		return nil, err
	}
	return inv, nil
}

var errInvoiceNotFound = errors.New("billing: invoice not found")
