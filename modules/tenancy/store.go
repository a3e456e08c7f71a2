package tenancy

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// Every query of the module's portal invitations. Each function runs
// through the db it is given: the callers hold a transaction.

// revokePending revokes the contragent's invitations still pending: a new
// one replaces them.
func revokePending(ctx context.Context, db bun.IDB, contragentID uuid.UUID, now time.Time) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model((*Invitation)(nil)).
		Set("status = ?", Revoked).Set("updated_at = ?", now).
		Where("contragent_id = ?", contragentID).Where("status = ?", Pending)); err != nil {
		return fmt.Errorf("revoke earlier invitations: %w", err)
	}
	return nil
}

// insertInvitation writes inv and sets its id.
func insertInvitation(ctx context.Context, db bun.IDB, inv *Invitation) error {
	if err := database.Query(ctx, db, db.NewInsert().Model(inv).Returning("id"), &inv.ID); err != nil {
		return fmt.Errorf("save invitation: %w", err)
	}
	return nil
}

// deleteInvitation takes back an invitation whose mail could not be sent.
func deleteInvitation(ctx context.Context, db bun.IDB, id int64) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Invitation)(nil)).
		Where("id = ?", database.Param{V: id})); err != nil {
		return fmt.Errorf("take back invitation: %w", err)
	}
	return nil
}

// invitationByHash reads the invitation whose token hashes to hash into
// inv: sql.ErrNoRows when there is none.
func invitationByHash(ctx context.Context, db bun.IDB, hash string, inv *Invitation) error {
	err := database.Select(ctx, db, db.NewSelect().Model(inv).Where("token_hash = ?", hash))
	if err != nil {
		return fmt.Errorf("invitation: %w", err)
	}
	return nil
}

// accept marks a pending invitation accepted by the user: false when it
// was not pending (of two accepts at once, one changes the row).
func accept(ctx context.Context, db bun.IDB, id, userID int64, now time.Time) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Invitation)(nil)).
		Set("status = ?", Accepted).Set("accepted_by = ?", database.Param{V: userID}).Set("updated_at = ?", now).
		Where("id = ?", database.Param{V: id}).Where("status = ?", Pending))
	if err != nil {
		return false, fmt.Errorf("accept invitation: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
