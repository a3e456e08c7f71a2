package penalties

import (
	"context"
	"log/slog"
	"maps"
	"slices"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Service holds the late-fee rules. Every method takes a property the
// caller got from properties.Service.Authorize.
type Service struct {
	db      *bun.DB
	store   *Store
	charges *expenses.Service
	blocks  *agreements.Blocks
	cfg     Config
	log     *slog.Logger
}

// NewService returns the service.
func NewService(db *bun.DB, store *Store, charges *expenses.Service, blocks *agreements.Blocks, cfg Config, log *slog.Logger) *Service {
	return &Service{db: db, store: store, charges: charges, blocks: blocks, cfg: cfg, log: log}
}

// Result counts what a refresh did with the overdue outstanding charges
// of contracts with a late fee: Created penalties, Skipped charges (they
// have their penalty already, or the fee rounds to 0.00), Errors (a
// percentage that cannot be read, a fee above the largest amount).
type Result struct {
	Created int `json:"created"`
	Skipped int `json:"skipped"`
	Errors  int `json:"errors"`
}

// Refresh gives every charge of prop that is regular (or a fine, where the
// terms set LATE_FEE_ON_FINES), of a contract whose terms set
// LATE_FEE_PERCENTAGE, due before today (UTC), not cancelled and
// still outstanding one penalty charge of outstanding x percentage,
// rounded half away from zero to the cent, once per charge ever. Where the
// country's agreement blocks forbid a fixed late fee the penalty is the
// statutory interest the contract claims, and a charge that would get a
// fee the law does not allow makes the whole refresh a 422 (rules in
// law.go). One-off charges (the deposit) count only for a contract whose
// late_fee_base is all. Reading
// the charges, the inserts and the ledger's use of credit on the new
// charges are one transaction under the property's lock; the unique index
// on penalty_for makes concurrent refreshes create each penalty once.
func (s *Service) Refresh(ctx context.Context, prop *properties.Property) (Result, error) {
	return s.RefreshOn(ctx, prop, s.charges.Today())
}

// RefreshOn is Refresh on the day today: the daily run passes the
// workspace's local day, so a charge due on the 3rd is late from the 4th
// there, whatever the date is in UTC.
func (s *Service) RefreshOn(ctx context.Context, prop *properties.Property, today period.Date) (Result, error) {
	var res Result
	fees, err := contracts.LateFees(ctx, s.db, prop.ID, prop.CountryCode)
	if err != nil || len(fees) == 0 {
		return res, err
	}
	rules, err := s.rules(ctx, prop.CountryCode, fees)
	if err != nil || len(rules) == 0 {
		return res, err
	}
	var all, periodic, fines []uuid.UUID
	for id := range rules {
		if fees[id].Fines {
			fines = append(fines, id)
		}
		if fees[id].Base == contracts.BaseAll {
			all = append(all, id)
		} else {
			periodic = append(periodic, id)
		}
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		res = Result{}
		if _, err := properties.Lock(ctx, tx, prop.ID); err != nil {
			return err
		}
		list, err := s.store.Overdue(ctx, tx, prop.ID, all, periodic, fines, today)
		if err != nil {
			return err
		}
		refused := map[string]bool{}
		for i := range list {
			if r := rules[*list[i].ContractID]; r.refused != "" {
				refused[r.refused] = true
			}
		}
		if len(refused) > 0 {
			return errNotAllowed(slices.Collect(maps.Keys(refused)))
		}
		done, err := s.store.Penalised(ctx, tx, prop.ID)
		if err != nil {
			return err
		}
		var due []expenses.PenaltyInput
		for i := range list {
			c := &list[i]
			if done[c.ID] {
				res.Skipped++
				continue
			}
			r := rules[*c.ContractID]
			fee, err := r.fee(c, today)
			switch {
			case err != nil:
				res.Errors++
				s.log.Warn("penalties: no late fee for a charge", "charge_id", c.ID, "contract_id", *c.ContractID, "error", err)
			case fee <= 0:
				res.Skipped++
			case r.interest != nil:
				due = append(due, expenses.PenaltyInput{For: c, Amount: fee, Interest: true})
			default:
				due = append(due, expenses.PenaltyInput{For: c, Amount: fee})
			}
		}
		inserted, err := s.charges.CreatePenaltiesTx(ctx, tx, prop.ID, due)
		if err != nil {
			return err
		}
		res.Created = len(inserted)
		res.Skipped += len(due) - len(inserted)
		if len(inserted) == 0 {
			return nil
		}
		// One line for the run, on the property, as refresh-all's.
		return activity.Record(ctx, tx, activity.Entry{
			Action: "penalties_generated", RecordType: "property", RecordID: prop.ID.String(), WorkspaceID: prop.WorkspaceID,
			Changes: map[string]activity.Change{"penalties_created": {nil, len(inserted)}},
		})
	})
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

// List returns a page of prop's penalties, newest due first.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) ([]expenses.Charge, listing.Result, error) {
	return s.store.List(ctx, prop.ID, q)
}
