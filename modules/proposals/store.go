package proposals

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// errNoRow means no row matched.
var errNoRow = errors.New("proposals: no row")

// Store reads and writes proposals and applications.
type Store struct{ db *bun.DB }

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// proposal returns, through db, the property's proposal with id.
func (s *Store) proposal(ctx context.Context, db bun.IDB, propertyID, id uuid.UUID, lock bool) (*Proposal, error) {
	p := new(Proposal)
	q := db.NewSelect().Model(p).Where("id = ?", id).Where("property_id = ?", propertyID)
	if lock && database.IsPostgres(db) {
		q = q.For("UPDATE")
	}
	err := database.Select(ctx, db, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRow
	}
	if err != nil {
		return nil, fmt.Errorf("proposal: %w", err)
	}
	return p, nil
}

// bySlug returns the proposal with slug.
func (s *Store) bySlug(ctx context.Context, db bun.IDB, slug string) (*Proposal, error) {
	p := new(Proposal)
	err := database.Select(ctx, db, db.NewSelect().Model(p).Where("slug = ?", slug))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRow
	}
	if err != nil {
		return nil, fmt.Errorf("proposal by slug: %w", err)
	}
	return p, nil
}

// list returns a page of the property's proposals in id order.
func (s *Store) list(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Proposal, listing.Result, error) {
	var out []Proposal
	sel := s.db.NewSelect().Model(&out).Where("property_id = ?", propertyID)
	if st := q.Get("status"); st != "" {
		sel = sel.Where("status = ?", st)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list proposals: %w", err)
	}
	return out, res, nil
}

// application returns, through db, the proposal's application with id,
// pending ones included.
func (s *Store) application(ctx context.Context, db bun.IDB, proposalID, id uuid.UUID) (*Application, error) {
	a := new(Application)
	err := database.Select(ctx, db, db.NewSelect().Model(a).Where("id = ?", id).Where("proposal_id = ?", proposalID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRow
	}
	if err != nil {
		return nil, fmt.Errorf("application: %w", err)
	}
	return a, nil
}

// applications returns a page of the proposal's confirmed applications in
// id order.
func (s *Store) applications(ctx context.Context, proposalID uuid.UUID, q listing.Query) ([]Application, listing.Result, error) {
	var out []Application
	sel := s.db.NewSelect().Model(&out).Where("proposal_id = ?", proposalID)
	if st := q.Get("status"); st != "" {
		sel = sel.Where("status = ?", st)
	} else {
		sel = sel.Where("status <> ?", Pending)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list applications: %w", err)
	}
	return out, res, nil
}

func (s *Store) insertProposal(ctx context.Context, db bun.IDB, pr *Proposal) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(pr)); err != nil {
		return fmt.Errorf("insert proposal: %w", err)
	}
	return nil
}

// updateProposal writes the proposal's updatable columns.
func (s *Store) updateProposal(ctx context.Context, db bun.IDB, pr *Proposal) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model(pr).Column(updatable...).Where("id = ?", pr.ID)); err != nil {
		return fmt.Errorf("update proposal: %w", err)
	}
	return nil
}

// deleteProposalsOf deletes the property's proposals with their
// applications (and, by the negotiations' foreign key, their
// negotiations).
func deleteProposalsOf(ctx context.Context, tx bun.Tx, propertyID uuid.UUID) error {
	if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Proposal)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return fmt.Errorf("delete proposals of property: %w", err)
	}
	return nil
}

func (s *Store) insertApplication(ctx context.Context, db bun.IDB, a *Application) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(a)); err != nil {
		return fmt.Errorf("insert application: %w", err)
	}
	return nil
}

// attempt counts one try of a pending application's code, while tries
// and time are left, and returns the code's hash then (none otherwise):
// one statement, so concurrent tries cannot exceed the limit.
func (s *Store) attempt(ctx context.Context, id, proposalID uuid.UUID, nowMS int64) ([]string, error) {
	var hashes []string
	raise := s.db.NewRaw(`UPDATE proposal_applications SET code_attempts = code_attempts + 1
		WHERE id = ? AND proposal_id = ? AND status = ? AND code_attempts < ? AND code_expires_ms > ? RETURNING code_hash`,
		id, proposalID, Pending, database.Param{V: int64(CodeMaxAttempts)}, database.Param{V: nowMS})
	if err := database.Query(ctx, s.db, raise, &hashes); err != nil {
		return nil, fmt.Errorf("application attempt: %w", err)
	}
	return hashes, nil
}

// confirm moves a pending application to new: false when it was not
// pending; a unique violation when the email applied to the proposal
// before.
func (s *Store) confirm(ctx context.Context, db bun.IDB, id uuid.UUID, now time.Time) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Application)(nil)).
		Set("status = ?", New).Set("confirmed_at = ?", now).Set("updated_at = ?", now).
		Where("id = ?", id).Where("status = ?", Pending))
	if err != nil {
		return false, fmt.Errorf("confirm application: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// dropPending deletes the application if it is still pending.
func (s *Store) dropPending(ctx context.Context, id uuid.UUID) error {
	_, err := database.Exec(ctx, s.db, s.db.NewDelete().Model((*Application)(nil)).
		Where("id = ?", id).Where("status = ?", Pending))
	if err != nil {
		return fmt.Errorf("drop duplicate application: %w", err)
	}
	return nil
}

// confirmedApplication reads the application with id unless it is still
// pending: sql.ErrNoRows then.
func (s *Store) confirmedApplication(ctx context.Context, db bun.IDB, id uuid.UUID) (*Application, error) {
	a := new(Application)
	err := database.Select(ctx, db, db.NewSelect().Model(a).Where("id = ?", id).Where("status <> ?", Pending))
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("application: %w", err)
	}
	return a, err
}

// decide records the landlord's decision on an application.
func (s *Store) decide(ctx context.Context, db bun.IDB, id uuid.UUID, to string, now time.Time) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*Application)(nil)).
		Set("status = ?", to).Set("decided_at = ?", now).Set("updated_at = ?", now).Where("id = ?", id)); err != nil {
		return fmt.Errorf("decide application: %w", err)
	}
	return nil
}

// sweep deletes the pending applications whose code expired before nowMS.
func (s *Store) sweep(ctx context.Context, nowMS int64) (int64, error) {
	res, err := database.Exec(ctx, s.db, s.db.NewDelete().Model((*Application)(nil)).Where("status = ?", Pending).
		Where("code_expires_ms <= ?", database.Param{V: nowMS}))
	if err != nil {
		return 0, fmt.Errorf("sweep applications: %w", err)
	}
	return res.RowsAffected()
}

// applicationWithProposal reads the application with id and its
// proposal; sql.ErrNoRows when the application is gone.
func (s *Store) applicationWithProposal(ctx context.Context, id uuid.UUID) (*Application, *Proposal, error) {
	a := new(Application)
	if err := database.Select(ctx, s.db, s.db.NewSelect().Model(a).Where("id = ?", id)); err != nil {
		return nil, nil, err
	}
	pr := new(Proposal)
	if err := database.Select(ctx, s.db, s.db.NewSelect().Model(pr).Where("id = ?", a.ProposalID)); err != nil {
		return nil, nil, err
	}
	return a, pr, nil
}
