package agreements

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// Store reads and writes agreement blocks and the catalogue's version.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// DB is the database the store works on, for services that open transactions.
func (s *Store) DB() *bun.DB { return s.db }

// All returns every block. The order is left to the caller: collations of
// the two engines sort codes differently.
func (s *Store) All(ctx context.Context) ([]Block, error) {
	var bs []Block
	if err := database.Select(ctx, s.db, s.db.NewSelect().Model(&bs)); err != nil {
		return nil, fmt.Errorf("list agreement blocks: %w", err)
	}
	return bs, nil
}

// versionRow is the id of the one row of agreement_blocks_version, bound
// like any id so the bound guard of the test kit has no exception to make.
var versionRow = database.Param{V: int64(1)}

// Version returns the catalogue's change counter.
func (s *Store) Version(ctx context.Context, db bun.IDB) (int64, error) {
	var v int64
	if err := database.Query(ctx, db, db.NewSelect().Table("agreement_blocks_version").Column("version").Where("id = ?", versionRow), &v); err != nil {
		return 0, fmt.Errorf("agreement blocks version: %w", err)
	}
	return v, nil
}

// Bump raises the change counter; call it in the transaction that changed
// the blocks, so a reader never sees new rows with the old version for long.
func (s *Store) Bump(ctx context.Context, db bun.IDB) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Table("agreement_blocks_version").Set("version = version + 1").Where("id = ?", versionRow)); err != nil {
		return fmt.Errorf("bump agreement blocks version: %w", err)
	}
	return nil
}

// ByCodes returns the stored blocks among codes.
func (s *Store) ByCodes(ctx context.Context, db bun.IDB, codes []string) ([]Block, error) {
	var bs []Block
	if len(codes) == 0 {
		return bs, nil
	}
	if err := database.Select(ctx, db, db.NewSelect().Model(&bs).Where("code ?", database.In(codes))); err != nil {
		return nil, fmt.Errorf("agreement blocks by code: %w", err)
	}
	return bs, nil
}

// upsertColumns are what a repeated upsert changes: everything but the
// identity, the origin (is_system) and created_at.
const upsertColumns = "data_type = EXCLUDED.data_type, country_code = EXCLUDED.country_code, " +
	"name = EXCLUDED.name, description = EXCLUDED.description, image_url = EXCLUDED.image_url, " +
	"sort_order = EXCLUDED.sort_order, updated_at = EXCLUDED.updated_at"

// Upsert inserts bs, all of the same origin (is_system), and updates the
// stored blocks of that origin with the same codes. A stored block of the
// other origin is left as it is, and not counted: the result is the number
// of rows inserted or updated.
func (s *Store) Upsert(ctx context.Context, db bun.IDB, bs []Block, system bool) (int64, error) {
	if len(bs) == 0 {
		return 0, nil
	}
	q := db.NewInsert().Model(&bs).
		On("CONFLICT (code) DO UPDATE").
		Set(upsertColumns).
		Where("?TableAlias.is_system = ?", system)
	if system {
		// The seed runs at every start: a block it does not change keeps
		// its updated_at, which the contract print form's ETag includes,
		// so a restart does not make every client fetch every PDF again.
		q = q.Where("(?TableAlias.data_type IS DISTINCT FROM EXCLUDED.data_type OR ?TableAlias.country_code IS DISTINCT FROM EXCLUDED.country_code" +
			" OR ?TableAlias.name IS DISTINCT FROM EXCLUDED.name OR ?TableAlias.description IS DISTINCT FROM EXCLUDED.description" +
			" OR ?TableAlias.image_url IS DISTINCT FROM EXCLUDED.image_url OR ?TableAlias.sort_order IS DISTINCT FROM EXCLUDED.sort_order)")
	}
	res, err := database.Exec(ctx, db, q.
		// Ids are not needed here, and a skipped row would return none.
		Returning("NULL"))
	if err != nil {
		return 0, fmt.Errorf("upsert agreement blocks: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("upsert agreement blocks: %w", err)
	}
	return n, nil
}

// Blocks is what other modules read of the agreement blocks: the blocks a
// contract names, by code, through the caller's transaction. fx provides
// it to every module that lists agreements in Depends.
type Blocks struct{ store *Store }

func newBlocks(s *Store) *Blocks { return &Blocks{store: s} }

// ByCodes returns, through db, the stored blocks among codes.
func (b *Blocks) ByCodes(ctx context.Context, db bun.IDB, codes []string) ([]Block, error) {
	return b.store.ByCodes(ctx, db, codes)
}
