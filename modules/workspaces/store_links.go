package workspaces

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
)

// tenantIn reports whether the user is a tenant in the workspace.
func tenantIn(ctx context.Context, db bun.IDB, workspaceID, userID int64) (bool, error) {
	return database.Exists(ctx, db, db.NewSelect().Model((*TenantLink)(nil)).
		Where("workspace_id = ?", param(workspaceID)).Where("user_id = ?", param(userID)))
}

// insertTenantLink writes l; linking twice is no change.
func insertTenantLink(ctx context.Context, db bun.IDB, l *TenantLink) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(l).On("CONFLICT DO NOTHING")); err != nil {
		return fmt.Errorf("link tenant: %w", err)
	}
	return nil
}

// tenantLinks returns the contragents the user is the tenant of.
func tenantLinks(ctx context.Context, db bun.IDB, userID int64) ([]TenantLink, error) {
	var links []TenantLink
	if err := database.Select(ctx, db, db.NewSelect().Model(&links).Where("user_id = ?", param(userID)).OrderExpr("contragent_id")); err != nil {
		return nil, fmt.Errorf("tenant links: %w", err)
	}
	return links, nil
}

// activityPage returns one page of the workspace's log, newest first,
// filtered by record type and id.
func activityPage(ctx context.Context, db bun.IDB, workspaceID int64, f ActivityFilter, q listing.Query) ([]activity.Row, listing.Result, error) {
	var list []activity.Row
	sel := db.NewSelect().Model(&list).Where("workspace_id = ?", param(workspaceID))
	if f.RecordType != "" {
		sel = sel.Where("record_type = ?", f.RecordType)
	}
	if f.RecordID != "" {
		sel = sel.Where("record_id = ?", f.RecordID)
	}
	res, err := listing.Scan(ctx, sel, q.Uncounted(), listing.Desc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("activity: %w", err)
	}
	return list, res, nil
}

// userNames adds to names the names of the users with ids, in one query.
func userNames(ctx context.Context, db bun.IDB, ids []int64, names map[int64]string) (map[int64]string, error) {
	var rows []struct {
		ID   int64  `bun:"id"`
		Name string `bun:"name"`
	}
	q := db.NewSelect().Table("users").Column("id", "name").Where("id ?", database.In(ids))
	if err := database.Query(ctx, db, q, &rows); err != nil {
		return nil, fmt.Errorf("activity user names: %w", err)
	}
	for _, r := range rows {
		names[r.ID] = r.Name
	}
	return names, nil
}
