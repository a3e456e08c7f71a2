package calendar

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

// insertEvent writes e through db (the caller's transaction).
func insertEvent(ctx context.Context, db bun.IDB, e *Event) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(e)); err != nil {
		return fmt.Errorf("insert calendar event: %w", err)
	}
	return nil
}

// eventOfWorkspace is the workspace's stored event with id, or nil.
func eventOfWorkspace(ctx context.Context, db bun.IDB, workspaceID int64, id uuid.UUID) (*Event, error) {
	e := new(Event)
	err := database.Select(ctx, db, db.NewSelect().Model(e).Where("id = ?", id).Where("workspace_id = ?", database.Param{V: workspaceID}))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("calendar event: %w", err)
	}
	return e, nil
}

// updateEvent writes e over its row and raises its sequence in the
// statement, so two concurrent updates both count; false when the row is
// gone.
func updateEvent(ctx context.Context, db bun.IDB, e *Event) (bool, error) {
	var seq int
	q := db.NewUpdate().Model(e).ExcludeColumn("id", "workspace_id", "created_by", "created_at", "sequence").
		Set("sequence = sequence + 1").
		Where("id = ?", e.ID).Where("workspace_id = ?", database.Param{V: e.WorkspaceID}).Returning("sequence")
	if err := database.Query(ctx, db, q, &seq); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return false, fmt.Errorf("update calendar event: %w", err)
	}
	e.Sequence = seq
	return true, nil
}

func deleteEvent(ctx context.Context, db bun.IDB, e *Event) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Event)(nil)).Where("id = ?", e.ID).
		Where("workspace_id = ?", database.Param{V: e.WorkspaceID})); err != nil {
		return fmt.Errorf("delete calendar event: %w", err)
	}
	return nil
}

// listEvents is one page of the workspace's stored events, oldest first.
func listEvents(ctx context.Context, db bun.IDB, workspaceID int64, f ListFilter, q listing.Query) ([]Event, listing.Result, error) {
	var list []Event
	sel := db.NewSelect().Model(&list).Where("workspace_id = ?", database.Param{V: workspaceID})
	if f.PropertyID != "" {
		sel = sel.Where("property_id = ?", f.PropertyID)
	}
	if f.ContractID != "" {
		sel = sel.Where("contract_id = ?", f.ContractID)
	}
	if f.Kind != "" {
		sel = sel.Where("kind = ?", f.Kind)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list calendar events: %w", err)
	}
	return list, res, nil
}

// eventsBetween reads the workspace's events that can have an occurrence
// between from and to.
func eventsBetween(ctx context.Context, db bun.IDB, workspaceID int64, from, to time.Time, q WindowQuery) ([]Event, error) {
	var list []Event
	sel := db.NewSelect().Model(&list).Where("workspace_id = ?", database.Param{V: workspaceID}).
		Where("starts_at < ?", to).
		WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.Where("until_at IS NULL").WhereOr("until_at >= ?", from)
		})
	if q.PropertyID != nil {
		sel = sel.Where("property_id = ?", *q.PropertyID)
	}
	if q.ContractID != nil {
		sel = sel.Where("contract_id = ?", *q.ContractID)
	}
	if len(q.Kinds) > 0 {
		var kinds []string
		for k := range q.Kinds {
			kinds = append(kinds, k)
		}
		sel = sel.Where("kind ?", database.In(kinds))
	}
	if err := database.Select(ctx, db, sel.OrderExpr("id")); err != nil {
		return nil, fmt.Errorf("calendar events of window: %w", err)
	}
	return list, nil
}

// saveFeedToken stores the member's feed token hash, replacing the old one.
func saveFeedToken(ctx context.Context, db bun.IDB, row *FeedToken) error {
	_, err := database.Exec(ctx, db, db.NewInsert().Model(row).
		On("CONFLICT (workspace_id, user_id) DO UPDATE").
		Set("token_hash = EXCLUDED.token_hash").Set("created_at = EXCLUDED.created_at"))
	if err != nil {
		return fmt.Errorf("save feed token: %w", err)
	}
	return nil
}

// feedTokenOwner is the workspace and member's language of a token hash
// whose member still belongs to the workspace; ok false otherwise. One
// join instead of three reads: the feed is polled by every calendar app.
func feedTokenOwner(ctx context.Context, db bun.IDB, hash string) (ws int64, locale string, ok bool, err error) {
	q := db.NewSelect().TableExpr("calendar_feed_tokens AS t").ColumnExpr("t.workspace_id, u.locale").
		// A token made before the membership (the member left and was
		// invited again) died with the earlier one.
		Join("JOIN workspace_members AS m ON m.workspace_id = t.workspace_id AND m.user_id = t.user_id AND m.created_at <= t.created_at").
		Join("JOIN users AS u ON u.id = t.user_id").
		Where("t.token_hash = ?", hash)
	err = database.Query(ctx, db, q, &ws, &locale)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", false, nil
	}
	if err != nil {
		return 0, "", false, fmt.Errorf("feed token: %w", err)
	}
	return ws, locale, true, nil
}

// reminderPage is a page of the events with reminders that can have an
// occurrence up to horizon and after since, by id after after.
func reminderPage(ctx context.Context, db bun.IDB, since, horizon time.Time, after uuid.UUID, limit int64) ([]Event, error) {
	var list []Event
	sel := db.NewSelect().Model(&list).Where("reminders <> ?", "[]").Where("starts_at <= ?", horizon).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("until_at IS NULL").WhereOr("until_at >= ?", since)
		}).Where("id > ?", after).OrderExpr("id").Limit(limit)
	if err := database.Select(ctx, db, sel); err != nil {
		return nil, fmt.Errorf("events with reminders: %w", err)
	}
	return list, nil
}

// recordReminder marks one reminder sent; false when a run did already.
func recordReminder(ctx context.Context, db bun.IDB, row *ReminderSent) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewInsert().Model(row).On("CONFLICT DO NOTHING"))
	if err != nil {
		return false, fmt.Errorf("record reminder: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}
