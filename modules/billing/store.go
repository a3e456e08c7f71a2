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
	"github.com/propman/propman/platform/listing"
)

// Store reads and writes subscriptions, invoices, credits and Stripe
// events; it holds every query of the module. Each method runs through the
// db it is given, so a caller in a transaction passes the transaction.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

func workspaceIs(id int64) (string, any) { return "workspace_id = ?", database.Param{V: id} }

// subscription returns the workspace's subscription, sql.ErrNoRows when
// billing has not seen the workspace yet; with lock the row is locked for
// the rest of the transaction on PostgreSQL (SQLite's transactions hold
// the database).
func (s *Store) subscription(ctx context.Context, db bun.IDB, workspaceID int64, lock bool) (*Subscription, error) {
	sub := new(Subscription)
	q := db.NewSelect().Model(sub).Where(workspaceIs(workspaceID))
	if lock {
		q = database.ForUpdate(q)
	}
	if err := database.Select(ctx, db, q); err != nil {
		return nil, err
	}
	return sub, nil
}

// insertSubscription writes sub unless the workspace has one already.
func (s *Store) insertSubscription(ctx context.Context, db bun.IDB, sub *Subscription) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(sub).On("CONFLICT (workspace_id) DO NOTHING")); err != nil {
		return fmt.Errorf("billing: new subscription: %w", err)
	}
	return nil
}

func (s *Store) saveSubscription(ctx context.Context, db bun.IDB, sub *Subscription) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(sub).Where(workspaceIs(sub.WorkspaceID)))
	return err
}

// readOnlyWorkspaces returns the workspaces whose subscription is read-only.
func (s *Store) readOnlyWorkspaces(ctx context.Context) ([]int64, error) {
	var ids []int64
	q := s.db.NewSelect().Model((*Subscription)(nil)).Column("workspace_id").Where("read_only = ?", true)
	if err := database.Query(ctx, s.db, q, &ids); err != nil {
		return nil, err
	}
	return ids, nil
}

// setReadOnly makes a past-due workspace read-only.
func (s *Store) setReadOnly(ctx context.Context, workspaceID int64, now time.Time) error {
	_, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model((*Subscription)(nil)).Set("read_only = ?", true).
		Set("updated_at = ?", now).Where(workspaceIs(workspaceID)).Where("status = ?", PastDue))
	return err
}

// insertCredit writes c once per source: a second credit of the same
// source changes nothing.
func insertCredit(ctx context.Context, db bun.IDB, c *credit) error {
	_, err := database.Exec(ctx, db, db.NewInsert().Model(c).On("CONFLICT (source) DO NOTHING"))
	return err
}

// waitingCredits returns the workspace's credits no invoice took yet,
// oldest first.
func (s *Store) waitingCredits(ctx context.Context, db bun.IDB, workspaceID int64) ([]credit, error) {
	var credits []credit
	if err := database.Select(ctx, db, db.NewSelect().Model(&credits).
		Where(workspaceIs(workspaceID)).Where("invoice_id IS NULL").Order("created_at", "id")); err != nil {
		return nil, err
	}
	return credits, nil
}

// billableUnits returns the workspace's properties in use now that existed
// before end, by name: one unit-month each.
func (s *Store) billableUnits(ctx context.Context, db bun.IDB, workspaceID int64, end time.Time) ([]properties.Property, error) {
	var units []properties.Property
	if err := database.Select(ctx, db, db.NewSelect().Model(&units).Column("id", "name").
		Where(workspaceIs(workspaceID)).Where("archived_at IS NULL").
		Where("created_at < ?", end).Order("name", "id")); err != nil {
		return nil, err
	}
	return units, nil
}

// invoiceByPeriod returns the workspace's invoice of the period label
// (2006-01), sql.ErrNoRows when there is none.
func (s *Store) invoiceByPeriod(ctx context.Context, db bun.IDB, workspaceID int64, label string) (*Invoice, error) {
	inv := new(Invoice)
	err := database.Select(ctx, db, db.NewSelect().Model(inv).Where(workspaceIs(workspaceID)).Where("period = ?", label))
	if err != nil {
		return nil, err
	}
	return inv, nil
}

// insertInvoice writes the invoice, its lines, and marks the credits it
// used as taken.
func (s *Store) insertInvoice(ctx context.Context, db bun.IDB, inv *Invoice, usedCredits []uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(inv)); err != nil {
		return err
	}
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(&inv.Lines)); err != nil {
		return err
	}
	if len(usedCredits) > 0 {
		if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*credit)(nil)).Set("invoice_id = ?", inv.ID).
			Where("id ?", database.In(usedCredits))); err != nil {
			return err
		}
	}
	return nil
}

// nextNumber takes the next number of issuer's year in tx: the counter row
// is locked until tx ends, so numbers are handed out in commit order and a
// rolled-back invoice gives its number back (no gap).
func (s *Store) nextNumber(ctx context.Context, tx bun.Tx, issuer string, year int) (int, error) {
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

// workspace returns the workspace's name and its landlord's user id.
// Billing reads the workspaces table itself rather than through the
// workspaces module, which depends on billing's read-only guard.
func (s *Store) workspace(ctx context.Context, db bun.IDB, workspaceID int64) (name string, landlord int64, err error) {
	err = database.Query(ctx, db, db.NewRaw("SELECT name, landlord_id FROM workspaces WHERE id = ?", database.Param{V: workspaceID}), &name, &landlord)
	return name, landlord, err
}

// invoice returns the invoice with id (of any workspace when workspaceID is
// 0) without its lines, errInvoiceNotFound when there is none.
func (s *Store) invoice(ctx context.Context, db bun.IDB, workspaceID int64, id uuid.UUID) (*Invoice, error) {
	inv := new(Invoice)
	q := db.NewSelect().Model(inv).Where("id = ?", id)
	if workspaceID != 0 {
		q = q.Where(workspaceIs(workspaceID))
	}
	err := database.Select(ctx, db, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errInvoiceNotFound
	}
	if err != nil {
		return nil, err
	}
	return inv, nil
}

// lines reads the invoice's lines in their order into inv.
func (s *Store) lines(ctx context.Context, db bun.IDB, inv *Invoice) error {
	return database.Select(ctx, db, db.NewSelect().Model(&inv.Lines).Where("invoice_id = ?", inv.ID).Order("position"))
}

// invoices returns one page of the workspace's invoices, newest first,
// filtered by status.
func (s *Store) invoices(ctx context.Context, workspaceID int64, q listing.Query) ([]Invoice, listing.Result, error) {
	var list []Invoice
	sel := s.db.NewSelect().Model(&list).Where(workspaceIs(workspaceID))
	if st := q.Get("status"); st != "" {
		sel = sel.Where("status = ?", st)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Desc("id"))
	return list, res, err
}

// openInvoices returns the workspace's open invoices, oldest first.
func (s *Store) openInvoices(ctx context.Context, workspaceID int64) ([]Invoice, error) {
	var open []Invoice
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(&open).Where(workspaceIs(workspaceID)).
		Where("status = ?", InvoiceOpen).Order("id"))
	return open, err
}

// setIntent records the Stripe payment intent of an invoice still open.
func (s *Store) setIntent(ctx context.Context, id uuid.UUID, intent string) error {
	_, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model((*Invoice)(nil)).Set("payment_intent = ?", intent).
		Where("id = ?", id).Where("status = ?", InvoiceOpen))
	return err
}

// markPaid marks the invoice paid if it is open: false when it was not.
func (s *Store) markPaid(ctx context.Context, db bun.IDB, id uuid.UUID, intent string, lastEvent int64, now time.Time) (bool, error) {
	q := db.NewUpdate().Model((*Invoice)(nil)).Set("status = ?", InvoicePaid).Set("paid_at = ?", now).
		Set("last_event = ?", database.Param{V: lastEvent}).
		Where("id = ?", id).Where("status = ?", InvoiceOpen)
	if intent != "" {
		q = q.Set("payment_intent = ?", intent)
	}
	res, err := database.Exec(ctx, db, q)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// countFailure adds a failed payment to the invoice.
func (s *Store) countFailure(ctx context.Context, db bun.IDB, id uuid.UUID, intent string, lastEvent int64) error {
	q := db.NewUpdate().Model((*Invoice)(nil)).Set("failures = failures + 1").
		Set("last_event = ?", database.Param{V: lastEvent}).Where("id = ?", id)
	if intent != "" {
		q = q.Set("payment_intent = ?", intent)
	}
	_, err := database.Exec(ctx, db, q)
	return err
}

// paidBefore reports whether the workspace paid an invoice with money on
// it other than except.
func (s *Store) paidBefore(ctx context.Context, db bun.IDB, workspaceID int64, except uuid.UUID) (bool, error) {
	return database.Exists(ctx, db, db.NewSelect().Model((*Invoice)(nil)).
		Where(workspaceIs(workspaceID)).Where("status = ?", InvoicePaid).
		Where("total > 0").Where("id <> ?", except))
}

// anyOpen reports whether the workspace has an invoice open.
func (s *Store) anyOpen(ctx context.Context, db bun.IDB, workspaceID int64) (bool, error) {
	return database.Exists(ctx, db, db.NewSelect().Model((*Invoice)(nil)).
		Where(workspaceIs(workspaceID)).Where("status = ?", InvoiceOpen))
}

// raiseReminders records the reminder step of an invoice: false when it
// had reached the step already (another run sent it).
func (s *Store) raiseReminders(ctx context.Context, id uuid.UUID, step int) (bool, error) {
	res, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model((*Invoice)(nil)).Set("reminders = ?", database.Param{V: step}).
		Where("id = ?", id).Where("reminders < ?", database.Param{V: step}))
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// recordEvent writes the Stripe event's id: false when it was written
// before (the event is applied once).
func (s *Store) recordEvent(ctx context.Context, db bun.IDB, e *event) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewInsert().Model(e).On("CONFLICT (event_id) DO NOTHING"))
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// invoiceExists reports whether an invoice with id exists.
func (s *Store) invoiceExists(ctx context.Context, db bun.IDB, id uuid.UUID) (bool, error) {
	return database.Exists(ctx, db, db.NewSelect().Model((*Invoice)(nil)).Where("id = ?", id))
}
