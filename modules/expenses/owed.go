package expenses

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/period"
)

// Owed pages, by id, through the workspace's contract charges still owed
// (unpaid, not cancelled, less paid than charged) that fall due from from
// to to: what the notices job calls and reminds. One statement a page over
// the whole workspace, never a query per property.
func (s *Service) Owed(ctx context.Context, workspaceID int64, from, to period.Date, after uuid.UUID, limit int) ([]Charge, error) {
	var list []Charge
	db := s.store.db
	q := db.NewSelect().Model(&list).
		Join("JOIN properties AS p ON p.id = charge.property_id").
		Where("p.workspace_id = ?", database.Param{V: workspaceID}).
		Where("charge.contract_id IS NOT NULL").
		Where("charge.status = ?", Unpaid).
		Where("charge.amount_minor > charge.paid_amount_minor").
		Where("charge.due_date >= ?", from).Where("charge.due_date <= ?", to).
		Where("charge.id > ?", after).
		OrderExpr("charge.id").Limit(int64(limit))
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("owed charges: %w", err)
	}
	return list, nil
}
