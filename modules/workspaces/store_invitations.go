package workspaces

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// MemberByEmail reports, through db, whether the user with email (lower
// case) is a member of the workspace. lower() costs nothing worth an
// index: the join walks the members of one workspace.
func (s *Store) MemberByEmail(ctx context.Context, db bun.IDB, workspaceID int64, email string) (bool, error) {
	ok, err := database.Exists(ctx, db, db.NewSelect().TableExpr("workspace_members AS m").
		Join("JOIN users AS u ON u.id = m.user_id").
		ColumnExpr("1").
		Where("m.workspace_id = ?", param(workspaceID)).Where("lower(u.email) = ?", email))
	if err != nil {
		return false, fmt.Errorf("member by email: %w", err)
	}
	return ok, nil
}

// DropPendingInvitation deletes the pending invitation of email to the
// workspace, through db: a new one replaces it.
func (s *Store) DropPendingInvitation(ctx context.Context, db bun.IDB, workspaceID int64, email string) error {
	_, err := database.Exec(ctx, db, db.NewDelete().Model((*Invitation)(nil)).
		Where("workspace_id = ?", param(workspaceID)).Where("email = ?", email).Where("status = 'pending'"))
	if err != nil {
		return fmt.Errorf("replace invitation: %w", err)
	}
	return nil
}

// PendingInvitations counts, through db, the workspace's pending
// invitations that have not expired at now.
func (s *Store) PendingInvitations(ctx context.Context, db bun.IDB, workspaceID int64, now time.Time) (int, error) {
	n, err := database.Count(ctx, db, db.NewSelect().Model((*Invitation)(nil)).
		Where("workspace_id = ?", param(workspaceID)).Where("status = 'pending'").Where("expires_at > ?", now))
	if err != nil {
		return 0, fmt.Errorf("count invitations: %w", err)
	}
	return n, nil
}

// InsertInvitation stores inv through db and sets its id.
func (s *Store) InsertInvitation(ctx context.Context, db bun.IDB, inv *Invitation) error {
	if err := database.Query(ctx, db, db.NewInsert().Model(inv).Returning("id"), &inv.ID); err != nil {
		return fmt.Errorf("insert invitation: %w", err)
	}
	return nil
}

// DeleteInvitation deletes the invitation with id through db.
func (s *Store) DeleteInvitation(ctx context.Context, db bun.IDB, id int64) error {
	_, err := database.Exec(ctx, db, db.NewDelete().Model((*Invitation)(nil)).Where("id = ?", param(id)))
	if err != nil {
		return fmt.Errorf("delete invitation: %w", err)
	}
	return nil
}

// Invitations returns one page of the workspace's invitations, newest
// first (workspace_invitations_workspace_idx).
func (s *Store) Invitations(ctx context.Context, workspaceID int64, q listing.Query) ([]Invitation, listing.Result, error) {
	var list []Invitation
	sel := s.db.NewSelect().Model(&list).Where("workspace_id = ?", param(workspaceID))
	res, err := listing.Scan(ctx, sel, q, listing.Desc("created_at", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("invitations: %w", err)
	}
	return list, res, nil
}

// Invitation reads the workspace's invitation with id through db.
func (s *Store) Invitation(ctx context.Context, db bun.IDB, workspaceID, id int64) (*Invitation, error) {
	inv := new(Invitation)
	err := database.Select(ctx, db, db.NewSelect().Model(inv).
		Where("workspace_id = ?", param(workspaceID)).Where("id = ?", param(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("invitation: %w", err)
	}
	return inv, nil
}

// InvitationByHash reads the invitation whose token hashes to hash,
// through db.
func (s *Store) InvitationByHash(ctx context.Context, db bun.IDB, hash string) (*Invitation, error) {
	inv := new(Invitation)
	err := database.Select(ctx, db, db.NewSelect().Model(inv).Where("token_hash = ?", hash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("invitation: %w", err)
	}
	return inv, nil
}

// RevokeInvitation revokes the invitation with id through db if it is
// pending: false when it was not.
func (s *Store) RevokeInvitation(ctx context.Context, db bun.IDB, id int64, now time.Time) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Invitation)(nil)).
		Set("status = ?", statusRevoked).Set("updated_at = ?", now).
		Where("id = ?", param(id)).Where("status = 'pending'"))
	return affected(res, err, "revoke invitation")
}

// AcceptInvitation marks the invitation with id accepted by userID,
// through db, if it is pending and unexpired at now: false when it was not
// (another request accepted it first). PostgreSQL re-checks the WHERE
// after waiting for a concurrent writer of the row, so one of two
// concurrent accepts changes it.
func (s *Store) AcceptInvitation(ctx context.Context, db bun.IDB, id, userID int64, now time.Time) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Invitation)(nil)).
		Set("status = ?", statusAccepted).Set("accepted_by = ?", param(userID)).Set("updated_at = ?", now).
		Where("id = ?", param(id)).Where("status = 'pending'").Where("expires_at > ?", now))
	return affected(res, err, "accept invitation")
}

func affected(res sql.Result, err error, what string) (bool, error) {
	if err != nil {
		return false, fmt.Errorf("%s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("%s: %w", what, err)
	}
	return n == 1, nil
}

// UserEmail reads the user's email through db.
func (s *Store) UserEmail(ctx context.Context, db bun.IDB, userID int64) (string, error) {
	var email string
	err := database.Query(ctx, db, db.NewSelect().TableExpr("users").Column("email").
		Where("id = ?", param(userID)), &email)
	if err != nil {
		return "", fmt.Errorf("user email: %w", err)
	}
	return email, nil
}

// Join makes the user a member of the workspace with role, through db,
// and returns the membership. A member already keeps the higher of their
// role and role. The workspace becomes the user's default only when they
// have none.
func (s *Store) Join(ctx context.Context, db bun.IDB, workspaceID, userID int64, role string, now time.Time) (*Member, error) {
	m := new(Member)
	err := database.Select(ctx, db, db.NewSelect().Model(m).
		Where("workspace_id = ?", param(workspaceID)).Where("user_id = ?", param(userID)))
	switch {
	case err == nil:
		if higher(role, m.Role) {
			m.Role, m.UpdatedAt = role, now
			if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*Member)(nil)).
				Set("role = ?", role).Set("updated_at = ?", now).
				Where("workspace_id = ?", param(workspaceID)).Where("user_id = ?", param(userID))); err != nil {
				return nil, fmt.Errorf("join workspace: %w", err)
			}
		}
		return m, nil
	case !errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("join workspace: %w", err)
	}
	hasDefault, err := database.Exists(ctx, db, db.NewSelect().Model((*Member)(nil)).
		Where("user_id = ?", param(userID)).Where("is_default"))
	if err != nil {
		return nil, fmt.Errorf("join workspace: %w", err)
	}
	m = &Member{WorkspaceID: workspaceID, UserID: userID, Role: role, IsDefault: !hasDefault, CreatedAt: now, UpdatedAt: now}
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(m)); err != nil {
		return nil, fmt.Errorf("join workspace: %w", err)
	}
	return m, nil
}

// higher reports whether role a is above role b.
func higher(a, b string) bool {
	ra, _ := auth.ParseRole(a)
	rb, _ := auth.ParseRole(b)
	return ra > rb
}
