package negotiations

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/proposals"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// Every query of the module. Each function runs through the db it is
// given, so a caller in a transaction passes the transaction.

// load reads the negotiation with id through db, locked for the
// transaction on PostgreSQL when lock (SQLite's write transactions run one
// at a time).
func load(ctx context.Context, db bun.IDB, id uuid.UUID, lock bool) (*Negotiation, error) {
	n := new(Negotiation)
	q := db.NewSelect().Model(n).Where("id = ?", id)
	if lock && database.IsPostgres(db) {
		q = q.For("UPDATE")
	}
	err := database.Select(ctx, db, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("negotiation: %w", err)
	}
	return n, nil
}

func rounds(ctx context.Context, db bun.IDB, id uuid.UUID) ([]Round, error) {
	var rs []Round
	if err := database.Select(ctx, db, db.NewSelect().Model(&rs).Where("negotiation_id = ?", id).Order("round")); err != nil {
		return nil, fmt.Errorf("rounds: %w", err)
	}
	return rs, nil
}

// insertNegotiation writes n; a second negotiation of the application is
// a unique violation the caller turns into its 409.
func insertNegotiation(ctx context.Context, db bun.IDB, n *Negotiation) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(n)); err != nil {
		return fmt.Errorf("insert negotiation: %w", err)
	}
	return nil
}

// insertRound writes r; a round already taken is a unique violation.
func insertRound(ctx context.Context, db bun.IDB, r *Round) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(r)); err != nil {
		return fmt.Errorf("insert round: %w", err)
	}
	return nil
}

// advanceRound moves an open negotiation to round, from the round before
// it: false when another offer moved it first.
func advanceRound(ctx context.Context, db bun.IDB, id uuid.UUID, round int, now time.Time) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Negotiation)(nil)).
		Set("current_round = ?", database.Param{V: int64(round)}).Set("updated_at = ?", now).
		Where("id = ?", id).Where("current_round = ?", database.Param{V: int64(round - 1)}).Where("status = ?", Open))
	if err != nil {
		return false, fmt.Errorf("advance round: %w", err)
	}
	k, _ := res.RowsAffected()
	return k == 1, nil
}

// acceptRound marks the round accepted by one side: column is
// landlord_accepted or applicant_accepted.
func acceptRound(ctx context.Context, db bun.IDB, id uuid.UUID, round int, column string) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*Round)(nil)).Set("? = ?", bun.Ident(column), true).
		Where("negotiation_id = ?", id).Where("round = ?", database.Param{V: int64(round)})); err != nil {
		return fmt.Errorf("accept round: %w", err)
	}
	return nil
}

// agree marks an open negotiation agreed on round.
func agree(ctx context.Context, db bun.IDB, id uuid.UUID, round int, now time.Time) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*Negotiation)(nil)).Set("status = ?", Agreed).
		Set("agreed_round = ?", database.Param{V: int64(round)}).Set("updated_at = ?", now).
		Where("id = ?", id).Where("status = ?", Open)); err != nil {
		return fmt.Errorf("agree: %w", err)
	}
	return nil
}

// decline marks an open negotiation declined by side.
func decline(ctx context.Context, db bun.IDB, id uuid.UUID, side string, now time.Time) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*Negotiation)(nil)).Set("status = ?", Declined).
		Set("declined_by = ?", side).Set("updated_at = ?", now).Where("id = ?", id).Where("status = ?", Open)); err != nil {
		return fmt.Errorf("decline: %w", err)
	}
	return nil
}

// expireOpen marks every open negotiation past its time expired, in one
// statement.
func expireOpen(ctx context.Context, db bun.IDB, now time.Time) (int64, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Negotiation)(nil)).Set("status = ?", Expired).
		Set("updated_at = ?", now).Where("status = ?", Open).Where("expires_at <= ?", now))
	if err != nil {
		return 0, fmt.Errorf("expire negotiations: %w", err)
	}
	return res.RowsAffected()
}

// list returns a page of the property's negotiations, oldest first,
// filtered by status.
func list(ctx context.Context, db bun.IDB, propertyID uuid.UUID, q listing.Query) ([]Negotiation, listing.Result, error) {
	var out []Negotiation
	sel := db.NewSelect().Model(&out).Where("property_id = ?", propertyID)
	if st := q.Get("status"); st != "" {
		sel = sel.Where("status = ?", st)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list negotiations: %w", err)
	}
	return out, res, nil
}

// roundOf reads one round of the negotiation.
func roundOf(ctx context.Context, db bun.IDB, id uuid.UUID, round int) (*Round, error) {
	r := new(Round)
	if err := database.Select(ctx, db, db.NewSelect().Model(r).Where("negotiation_id = ?", id).
		Where("round = ?", database.Param{V: int64(round)})); err != nil {
		return nil, fmt.Errorf("round %d: %w", round, err)
	}
	return r, nil
}

// linkContract records the draft contract and tenant the negotiation
// became.
func linkContract(ctx context.Context, db bun.IDB, id, contractID, tenantID uuid.UUID, now time.Time) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*Negotiation)(nil)).Set("contract_id = ?", contractID).
		Set("tenant_id = ?", tenantID).Set("updated_at = ?", now).Where("id = ?", id)); err != nil {
		return fmt.Errorf("link contract: %w", err)
	}
	return nil
}

// applicationOf reads the application and the listing the negotiation is
// about, for its mails. The job runs outside any request, after the
// property may have gone; proposals' rows are read by id here rather than
// through its property-scoped service.
func applicationOf(ctx context.Context, db bun.IDB, n *Negotiation) (*proposals.Application, *proposals.Proposal, error) {
	a := new(proposals.Application)
	if err := database.Select(ctx, db, db.NewSelect().Model(a).Where("id = ?", n.ApplicationID)); err != nil {
		return nil, nil, err
	}
	pr := new(proposals.Proposal)
	if err := database.Select(ctx, db, db.NewSelect().Model(pr).Where("id = ?", n.ProposalID)); err != nil {
		return nil, nil, err
	}
	return a, pr, nil
}
