package receipts

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// PaymentsByNumber returns, through db, the payments whose receipts in
// the workspace carry one of the numbers, by number: a tenant who quotes a
// receipt's number in a transfer names the contract that payment was for
// (the banking module's matcher).
func PaymentsByNumber(ctx context.Context, db bun.IDB, workspaceID int64, numbers []string) (map[string]uuid.UUID, error) {
	out := map[string]uuid.UUID{}
	if len(numbers) == 0 {
		return out, nil
	}
	var rows []Receipt
	err := database.Select(ctx, db, db.NewSelect().Model(&rows).Column("number", "payment_id").
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("number ?", database.In(numbers)))
	if err != nil {
		return nil, fmt.Errorf("receipts by number: %w", err)
	}
	for _, r := range rows {
		out[r.Number] = r.PaymentID
	}
	return out, nil
}
