package messages

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/platform/database"
)

// The reads and writes of NotifyAll: a batch of notices in a few
// statements, whatever its size (the caller bounds it).

// noticeContracts reads, through db, the contracts with ids.
func noticeContracts(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]*contracts.Contract, error) {
	var list []contracts.Contract
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("id ?", database.In(ids))); err != nil {
		return nil, fmt.Errorf("contracts of notices: %w", err)
	}
	out := make(map[uuid.UUID]*contracts.Contract, len(list))
	for i := range list {
		out[list[i].ID] = &list[i]
	}
	return out, nil
}

// noticeTenants reads, through db, the contragents with ids.
func noticeTenants(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]*contragents.Contragent, error) {
	var list []contragents.Contragent
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("id ?", database.In(ids))); err != nil {
		return nil, fmt.Errorf("tenants of notices: %w", err)
	}
	out := make(map[uuid.UUID]*contragents.Contragent, len(list))
	for i := range list {
		out[list[i].ID] = &list[i]
	}
	return out, nil
}

// contractThreads reads, through db, the threads of the contracts with ids.
func contractThreads(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]*Thread, error) {
	var list []Thread
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("contract_id ?", database.In(ids))); err != nil {
		return nil, fmt.Errorf("threads of notices: %w", err)
	}
	out := make(map[uuid.UUID]*Thread, len(list))
	for i := range list {
		out[*list[i].ContractID] = &list[i]
	}
	return out, nil
}

// insertThreads adds threads; one another transaction added meanwhile
// is left as it is (the caller reads the threads again).
func insertThreads(ctx context.Context, db bun.IDB, threads []Thread) error {
	if len(threads) == 0 {
		return nil
	}
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(&threads).On("CONFLICT DO NOTHING")); err != nil {
		return fmt.Errorf("create threads: %w", err)
	}
	return nil
}

// insertNotices adds msgs, leaving out each whose notice key exists, and
// returns the ids of those it added.
func insertNotices(ctx context.Context, db bun.IDB, msgs []Message) (map[uuid.UUID]bool, error) {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(&msgs).On("CONFLICT DO NOTHING")); err != nil {
		return nil, fmt.Errorf("insert notices: %w", err)
	}
	// The ids are new (version 7, made here): those found are the rows
	// this statement wrote, whichever engine (RETURNING of a multi-row
	// insert that skips rows does not say which were skipped in order).
	ids := make([]uuid.UUID, len(msgs))
	for i := range msgs {
		ids[i] = msgs[i].ID
	}
	var found []uuid.UUID
	text, args, err := database.Render(db, db.NewSelect().Model((*Message)(nil)).Column("id").Where("id ?", database.In(ids)))
	if err == nil {
		err = database.Scan(ctx, db, text, args, &found)
	}
	if err != nil {
		return nil, fmt.Errorf("notices inserted: %w", err)
	}
	out := make(map[uuid.UUID]bool, len(found))
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}
