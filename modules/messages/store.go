package messages

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
)

// The module's queries: threads and messages. Each takes the bun.IDB it
// runs on, so a caller inside a transaction passes the transaction.

// findThread is the thread of the contract (when contractID is set) or of
// the property and contragent, or nil.
func findThread(ctx context.Context, db bun.IDB, propertyID uuid.UUID, contractID *uuid.UUID, contragentID uuid.UUID) (*Thread, error) {
	t := new(Thread)
	sel := db.NewSelect().Model(t)
	if contractID != nil {
		sel = sel.Where("contract_id = ?", *contractID)
	} else {
		sel = sel.Where("property_id = ?", propertyID).Where("contragent_id = ?", contragentID).Where("contract_id IS NULL")
	}
	err := database.Select(ctx, db, sel)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("thread: %w", err)
	}
	return t, nil
}

// insertThread creates t unless its contract's or its property and
// contragent's thread exists (two first messages at once).
func insertThread(ctx context.Context, db bun.IDB, t *Thread) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(t).On("CONFLICT DO NOTHING")); err != nil {
		return fmt.Errorf("create thread: %w", err)
	}
	return nil
}

// threadByToken is the thread of a reply address's token, or nil.
func threadByToken(ctx context.Context, db bun.IDB, token string) (*Thread, error) {
	t := new(Thread)
	err := database.Select(ctx, db, db.NewSelect().Model(t).Where("token = ?", token))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("thread by token: %w", err)
	}
	return t, nil
}

// threadByID is the thread with id.
func threadByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*Thread, error) {
	t := new(Thread)
	if err := database.Select(ctx, db, db.NewSelect().Model(t).Where("id = ?", id)); err != nil {
		return nil, fmt.Errorf("thread %s: %w", id, err)
	}
	return t, nil
}

// filedReply is the mail reply with messageID in thread, or nil.
func filedReply(ctx context.Context, db bun.IDB, threadID uuid.UUID, messageID string) (*Message, error) {
	m := new(Message)
	err := database.Select(ctx, db, db.NewSelect().Model(m).Where("thread_id = ?", threadID).
		Where("message_id = ?", messageID).Where("direction = ?", In).Where("channel = ?", Email))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("filed reply: %w", err)
	}
	return m, nil
}

// messageByID is the message with id, or nil.
func messageByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*Message, error) {
	m := new(Message)
	err := database.Select(ctx, db, db.NewSelect().Model(m).Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("message: %w", err)
	}
	return m, nil
}

// messageOfProperty is the property's message with id, or nil.
func messageOfProperty(ctx context.Context, db bun.IDB, propertyID, id uuid.UUID) (*Message, error) {
	m := new(Message)
	err := database.Select(ctx, db, db.NewSelect().Model(m).Where("id = ?", id).Where("property_id = ?", propertyID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("message: %w", err)
	}
	return m, nil
}

// noticedKeys returns which of keys a notice message exists for.
func noticedKeys(ctx context.Context, db bun.IDB, keys []string) ([]string, error) {
	var found []string
	text, args, err := database.Render(db, db.NewSelect().Model((*Message)(nil)).Column("notice_key").
		Where("notice_key ?", database.In(keys)))
	if err == nil {
		err = database.Scan(ctx, db, text, args, &found)
	}
	if err != nil {
		return nil, fmt.Errorf("notices sent: %w", err)
	}
	return found, nil
}

// insertMessage inserts m; false when the notice (same key) or the reply
// (same thread and Message-ID) is there already.
func insertMessage(ctx context.Context, db bun.IDB, m *Message) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewInsert().Model(m).On("CONFLICT DO NOTHING"))
	if err != nil {
		return false, fmt.Errorf("insert message: %w", err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// existingMessage is the message an insertMessage of m found in its way:
// the notice with m's key, or the reply with m's Message-ID in thread.
func existingMessage(ctx context.Context, db bun.IDB, threadID uuid.UUID, m *Message) (*Message, error) {
	existing := new(Message)
	sel := db.NewSelect().Model(existing)
	if m.NoticeKey != nil {
		sel = sel.Where("notice_key = ?", *m.NoticeKey)
	} else {
		sel = sel.Where("thread_id = ?", threadID).Where("message_id = ?", m.MessageID).Where("direction = ?", In)
	}
	if err := database.Select(ctx, db, sel); err != nil {
		return nil, fmt.Errorf("existing message: %w", err)
	}
	return existing, nil
}

// recordDelivery sets a queued message's delivery state after an attempt.
func recordDelivery(ctx context.Context, db bun.IDB, id uuid.UUID, state string, lastErr *string, attempt int, now time.Time) error {
	upd := db.NewUpdate().Model((*Message)(nil)).Set("delivery = ?", state).Set("last_error = ?", lastErr).
		Set("attempts = ?", attempt).Set("updated_at = ?", now).
		Where("id = ?", id).Where("delivery = ?", Queued)
	if state == Sent {
		upd = upd.Set("sent_at = ?", now)
	}
	if _, err := database.Exec(ctx, db, upd); err != nil {
		return fmt.Errorf("record delivery: %w", err)
	}
	return nil
}

// listOfProperty is one page of the property's messages, newest first,
// filtered by the query's ids and states.
func listOfProperty(ctx context.Context, db bun.IDB, propertyID uuid.UUID, q listing.Query) ([]Message, listing.Result, error) {
	var list []Message
	sel := db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	for _, f := range []string{"contract_id", "contragent_id", "thread_id"} {
		if v := q.Get(f); v != "" {
			id, err := uuid.Parse(v)
			if err != nil {
				return nil, listing.Result{}, fault.Validation(f + ": must be a UUID")
			}
			sel = sel.Where("? = ?", bun.Ident(f), id)
		}
	}
	for _, f := range []string{"direction", "channel", "delivery"} {
		if v := q.Get(f); v != "" {
			sel = sel.Where("? = ?", bun.Ident(f), v)
		}
	}
	res, err := listing.Scan(ctx, sel, q, listing.Desc("created_at", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list messages: %w", err)
	}
	return list, res, nil
}

// listOfTenant is one page of the contract's messages its tenant sees (all
// but the landlord's notes), newest first.
func listOfTenant(ctx context.Context, db bun.IDB, contractID uuid.UUID, q listing.Query) ([]Message, listing.Result, error) {
	var list []Message
	sel := db.NewSelect().Model(&list).Where("contract_id = ?", contractID).Where("direction <> ?", Note)
	res, err := listing.Scan(ctx, sel, q, listing.Desc("created_at", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list tenant messages: %w", err)
	}
	return list, res, nil
}

// deleteOfProperty deletes the property's messages and threads.
func deleteOfProperty(ctx context.Context, db bun.IDB, propertyID uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Message)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return fmt.Errorf("delete messages of property: %w", err)
	}
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Thread)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return fmt.Errorf("delete threads of property: %w", err)
	}
	return nil
}
