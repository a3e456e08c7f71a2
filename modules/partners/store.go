package partners

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// Store reads and writes partner invitations; it holds every query of the
// module.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

func partnerIs(workspaceID int64) (string, any) {
	return "partner_workspace_id = ?", database.Param{V: workspaceID}
}

// waiting counts the partner's invitations not used yet.
func (s *Store) waiting(ctx context.Context, db bun.IDB, workspaceID int64) (int, error) {
	return database.Count(ctx, db, db.NewSelect().Model((*Invitation)(nil)).Where(partnerIs(workspaceID)).Where("status = ?", Sent))
}

// invitedAlready reports whether the partner has an invitation to email
// waiting.
func (s *Store) invitedAlready(ctx context.Context, db bun.IDB, workspaceID int64, email string) (bool, error) {
	return database.Exists(ctx, db, db.NewSelect().Model((*Invitation)(nil)).
		Where(partnerIs(workspaceID)).Where("email = ?", email).Where("status = ?", Sent))
}

func (s *Store) insert(ctx context.Context, db bun.IDB, inv *Invitation) error {
	_, err := database.Exec(ctx, db, db.NewInsert().Model(inv))
	return err
}

// list returns one page of the partner's invitations, newest first.
func (s *Store) list(ctx context.Context, workspaceID int64, q listing.Query) ([]Invitation, listing.Result, error) {
	var list []Invitation
	sel := s.db.NewSelect().Model(&list).Where(partnerIs(workspaceID))
	if st := q.Get("status"); st != "" {
		sel = sel.Where("status = ?", st)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Desc("id"))
	return list, res, err
}

// normalCode is a code as stored: upper case, no spaces around.
func normalCode(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

// byCode returns the invitation with the code, nil when there is none.
func (s *Store) byCode(ctx context.Context, db bun.IDB, code string) (*Invitation, error) {
	inv := new(Invitation)
	err := database.Select(ctx, db, db.NewSelect().Model(inv).Where("code = ?", normalCode(code)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return inv, err
}

// registered marks the waiting invitation with the code as used by the
// new user.
func (s *Store) registered(ctx context.Context, code string, userID int64, at time.Time) error {
	_, err := database.Exec(ctx, s.db, s.db.NewUpdate().Model((*Invitation)(nil)).Set("status = ?", Registered).
		Set("invitee_user_id = ?", database.Param{V: userID}).Set("registered_at = ?", at).
		Where("code = ?", normalCode(code)).Where("status = ?", Sent))
	return err
}

// ofLandlord returns the registered invitation that brought the
// workspace's landlord, nil when none did. The workspace's landlord is
// read from the workspaces table: partners sits under billing, which the
// workspaces module depends on.
func (s *Store) ofLandlord(ctx context.Context, db bun.IDB, workspaceID int64) (*Invitation, error) {
	var landlord int64
	if err := database.Query(ctx, db, db.NewRaw("SELECT landlord_id FROM workspaces WHERE id = ?", database.Param{V: workspaceID}), &landlord); err != nil {
		return nil, err
	}
	inv := new(Invitation)
	err := database.Select(ctx, db, db.NewSelect().Model(inv).Where("invitee_user_id = ?", database.Param{V: landlord}).
		Where("status = ?", Registered))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return inv, err
}

// converted marks the registered invitation converted: false when another
// paid invoice did it first.
func (s *Store) converted(ctx context.Context, db bun.IDB, id uuid.UUID, at time.Time) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Invitation)(nil)).Set("status = ?", Converted).
		Set("converted_at = ?", at).Where("id = ?", id).Where("status = ?", Registered))
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}
