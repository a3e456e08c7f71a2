package notices

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/database"
)

// batchKnobs are the run's batches: how many candidates are decided and
// written at once (page unless a test says otherwise), whether to write
// every notice in its own transaction as the run did before the batches
// (the batches' test oracle), and a call after each committed batch whose
// error stops the run there (a test's crash between batches).
type batchKnobs struct {
	size     int
	oneByOne bool
	after    func() error
}

func (s *Service) batchSize() int {
	if s.batch.size > 0 {
		return s.batch.size
	}
	return page
}

// sendBatch writes the notices of kind about todo (none sent yet, every
// one switched on) in one transaction: the contracts and what their
// letters name read with one statement each, the account of each
// distinct account once, the letters written in Go, then the messages,
// their mail jobs and activity (messages.NotifyAll) and the reminders'
// steps with one statement each. A batch commits whole or not at all;
// what it wrote (the notice keys) is what the next run leaves out, so a
// run stopped between batches resumes where it stood. sent counts the
// notices written now (another instance may have written some meanwhile).
func (s *Service) sendBatch(ctx context.Context, kind string, todo []group, step func(group) string) (sent int, err error) {
	ids := make([]uuid.UUID, len(todo))
	for i, g := range todo {
		ids[i] = g.contract
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		sent = 0
		r, err := s.store.readBatch(ctx, tx, ids)
		if err != nil {
			return err
		}
		banks := map[string]*printforms.Bank{}
		list := make([]messages.Notice, 0, len(todo))
		var steps []Dunning
		for _, g := range todo {
			c := r.contracts[g.contract]
			if c == nil {
				return fmt.Errorf("contract %s: %w", g.contract, contracts.ErrNotFound)
			}
			cg, prop, owner := r.tenants[c.TenantID], r.properties[c.PropertyID], r.owners[c.OwnerID]
			if cg == nil || prop == nil || owner == nil {
				return fmt.Errorf("notices: the tenant, property or landlord of contract %s is gone", c.ID)
			}
			var bank *printforms.Bank
			if kind == RentCall || kind == Reminder {
				key := ""
				if c.BankAccountID != nil {
					key = c.BankAccountID.String()
				}
				var ok bool
				if bank, ok = banks[key]; !ok {
					if bank, err = s.bankOf(ctx, tx, c); err != nil {
						return err
					}
					banks[key] = bank
				}
			}
			n, d, err := s.write(ctx, tx, c, s.letterOf(c, cg, prop, owner), bank, kind, g, step(g))
			if err != nil {
				return fmt.Errorf("%s of contract %s (%s): %w", kind, g.contract, step(g), err)
			}
			list = append(list, n)
			if d != nil {
				steps = append(steps, *d)
			}
		}
		created, err := s.messages.NotifyAll(ctx, tx, list)
		if err != nil {
			return err
		}
		for _, ok := range created {
			if ok {
				sent++
			}
		}
		return s.store.climbAll(ctx, tx, steps)
	})
	return sent, err
}
