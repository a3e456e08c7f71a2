package expenses

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/period"
)

// The billing run reads a workspace's properties billingProperties at a
// time (three statements for the batch: its expenses, their last billed
// periods, the charges already there) and writes the batch's charges in
// transactions of at most billingCharges charges, cut between properties:
// a catch-up of years over a thousand properties is tens of thousands of
// rows, too long a transaction to hold their locks.
const (
	billingProperties = 1000
	billingCharges    = 5000
)

// batchKnobs change the billing run's batches in tests (export_test.go):
// smaller sizes, and after, called when a transaction committed, whose
// error stops the run there as a crash would.
type batchKnobs struct {
	properties, charges int
	after               func() error
}

// CreditHolders is what the Ledger may also answer: which of a batch's
// properties have credit to use on new charges, in one question, so that
// ChargesCreated runs only for those and not once per property.
type CreditHolders interface {
	CreditHolders(ctx context.Context, tx bun.IDB, propertyIDs []uuid.UUID) ([]uuid.UUID, error)
}

// BillingResult is what a billing run of a workspace did: properties
// seen, charges made, expenses with nothing due or charges that existed
// (skipped), and charges that could not be made (errors, with a line per
// property in Problems).
type BillingResult struct {
	Properties int
	Created    int
	Skipped    int
	Errors     int
	Problems   []string
}

// BillWorkspace makes the automatic charges due up to the period holding
// today (the workspace's local day) for every active property of the
// workspace, by the rule of Bill, in batches: each transaction inserts
// its charges in one statement (the unique key on origin and period skips
// those that exist), journals them, hands the properties that hold credit
// to the ledger and logs one activity line per property, under the locks
// of its properties. What committed stays when a later batch fails or ctx
// ends; the next run skips it and goes on from there.
func (s *Service) BillWorkspace(ctx context.Context, props *properties.Service, workspaceID int64, today period.Date) (BillingResult, error) {
	var res BillingResult
	size := billingProperties
	if s.batch.properties > 0 {
		size = s.batch.properties
	}
	batch := make([]properties.Property, 0, size)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := s.billBatch(ctx, workspaceID, batch, today, &res)
		batch = batch[:0]
		return err
	}
	err := props.EachActive(ctx, workspaceID, func(p *properties.Property) error {
		batch = append(batch, *p)
		if len(batch) < size {
			return nil
		}
		return flush()
	})
	if err == nil {
		err = flush()
	}
	return res, err
}

// billBatch bills one batch of properties of the workspace into res.
func (s *Service) billBatch(ctx context.Context, workspaceID int64, batch []properties.Property, today period.Date, res *BillingResult) error {
	ids := make([]uuid.UUID, len(batch))
	for i := range batch {
		ids[i] = batch[i].ID
	}
	list, err := s.store.ActiveAutomaticOf(ctx, ids)
	if err != nil {
		return err
	}
	res.Properties += len(batch)
	if len(list) == 0 {
		return nil
	}
	expenseIDs := make([]uuid.UUID, len(list))
	for i := range list {
		expenseIDs[i] = list[i].ID
	}
	last, err := s.store.lastBilled(ctx, expenseIDs)
	if err != nil {
		return err
	}
	sinceOf := catchUp(last, today)
	now := s.now()
	due := map[uuid.UUID][]Charge{}
	errs := map[uuid.UUID]int{}
	var all []Charge
	for i := range list {
		e := &list[i]
		cs, err := chargesFor(e, sinceOf(e), today, now)
		switch {
		case err != nil:
			res.Errors++
			errs[e.PropertyID]++
			s.log.Warn("billing: expense skipped with an error", "expense_id", e.ID, "error", err)
		case len(cs) == 0:
			res.Skipped++
		default:
			all = append(all, cs...)
		}
	}
	taken, err := s.store.existing(ctx, all)
	if err != nil {
		return err
	}
	for _, c := range all {
		if taken[chargeKey{c.Origin, c.Period}] {
			res.Skipped++
			continue
		}
		due[c.PropertyID] = append(due[c.PropertyID], c)
	}
	// Transactions cut between properties, in the batch's (id) order.
	var part []Charge
	var partProps []uuid.UUID
	commit := func() error {
		if len(part) == 0 {
			return nil
		}
		err := s.billPart(ctx, workspaceID, partProps, part, res, errs)
		part, partProps = nil, nil
		return err
	}
	limit := billingCharges
	if s.batch.charges > 0 {
		limit = s.batch.charges
	}
	for i := range batch {
		cs := due[batch[i].ID]
		if len(cs) == 0 {
			continue
		}
		if len(part) > 0 && len(part)+len(cs) > limit {
			if err := commit(); err != nil {
				return err
			}
		}
		part, partProps = append(part, cs...), append(partProps, batch[i].ID)
	}
	if err := commit(); err != nil {
		return err
	}
	for i := range batch {
		if n := errs[batch[i].ID]; n > 0 {
			res.Problems = append(res.Problems, fmt.Sprintf("property %s (%s): %d charges could not be made; see the log", batch[i].ID, batch[i].Name, n))
		}
	}
	return nil
}

// billPart writes charges, those of the properties propIDs, in one
// transaction, and adds what it did to res (errs: failed charges by
// property).
func (s *Service) billPart(ctx context.Context, workspaceID int64, propIDs []uuid.UUID, charges []Charge, res *BillingResult, errs map[uuid.UUID]int) error {
	var inserted, failed []Charge
	err := database.RunInTx(ctx, s.store.db, func(ctx context.Context, tx bun.Tx) error {
		locked, err := properties.LockAll(ctx, tx, propIDs)
		if err != nil {
			return err
		}
		if len(locked) < len(propIDs) {
			// A property deleted since the batch was read gets nothing.
			there := make(map[uuid.UUID]bool, len(locked))
			for _, id := range locked {
				there[id] = true
			}
			kept := charges[:0:0]
			for _, c := range charges {
				if there[c.PropertyID] {
					kept = append(kept, c)
				}
			}
			charges = kept
		}
		if len(charges) == 0 {
			return nil
		}
		if inserted, failed, err = s.store.InsertChargesOnce(ctx, tx, charges); err != nil {
			return err
		}
		if len(inserted) == 0 {
			return nil
		}
		if s.journal.On() {
			if err := s.journal.Post(ctx, tx, chargeEntries(workspaceID, inserted)...); err != nil {
				return err
			}
		}
		byProp := map[uuid.UUID][]Charge{}
		var order []uuid.UUID
		for _, c := range inserted {
			if _, ok := byProp[c.PropertyID]; !ok {
				order = append(order, c.PropertyID)
			}
			byProp[c.PropertyID] = append(byProp[c.PropertyID], c)
		}
		if s.ledger != nil {
			holders := order
			if h, ok := s.ledger.(CreditHolders); ok {
				if holders, err = h.CreditHolders(ctx, tx, order); err != nil {
					return err
				}
			}
			for _, id := range holders {
				if err := s.ledger.ChargesCreated(ctx, tx, id, byProp[id]); err != nil {
					return err
				}
			}
		}
		// One line per property, as a refresh logs: the charges are in
		// the charge list anyway.
		lines := make([]activity.Entry, len(order))
		for i, id := range order {
			lines[i] = activity.Entry{
				Action: "charges_generated", RecordType: "property", RecordID: id.String(), WorkspaceID: workspaceID,
				Changes: map[string]activity.Change{"charges_created": {nil, len(byProp[id])}},
			}
		}
		return activity.RecordAll(ctx, tx, lines)
	})
	if err != nil {
		return err
	}
	for _, c := range failed {
		errs[c.PropertyID]++
		s.log.Warn("billing: charge could not be stored", "expense_id", c.Origin, "period", c.Period)
	}
	res.Created += len(inserted)
	res.Errors += len(failed)
	res.Skipped += len(charges) - len(inserted) - len(failed)
	s.met.ChargesGenerated(len(inserted))
	if s.batch.after != nil {
		return s.batch.after()
	}
	return nil
}
