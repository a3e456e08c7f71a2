package agreements

import (
	"context"
	"errors"
	"slices"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/agreements/catalog"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
)

// Seed writes the shipped catalogue idempotently: system blocks are
// inserted or brought back to the shipped text; a block an operator imported
// under a code that a later release ships is left as the operator made it.
func Seed(ctx context.Context, db *bun.DB) error {
	shipped, err := catalog.Load()
	if err != nil {
		return err
	}
	store := NewStore(db)
	blocks := toBlocks(shipped, true, clock.Real{})
	return database.RunInTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := store.Upsert(ctx, tx, blocks, true); err != nil {
			return err
		}
		return store.Bump(ctx, tx)
	})
}

func toBlocks(cs []catalog.Block, system bool, clk clock.Clock) []Block {
	now := clk.Now().UTC()
	out := make([]Block, 0, len(cs))
	for _, c := range cs {
		out = append(out, Block{
			Code: c.Code, DataType: c.DataType, CountryCode: c.Country, Name: c.Name, Description: c.Description,
			ImageURL: c.ImageURL, IsSystem: system, SortOrder: c.SortOrder, CreatedAt: now, UpdatedAt: now,
		})
	}
	return out
}

// ImportResult says what an import did.
type ImportResult struct {
	Added   int
	Updated int
}

// Importer adds operators' blocks to the catalogue.
type Importer struct {
	store *Store
	dir   *reference.Directory
	clock clock.Clock
}

// NewImporter returns an importer; dir checks country and language codes.
func NewImporter(store *Store, dir *reference.Directory, clk clock.Clock) *Importer {
	return &Importer{store: store, dir: dir, clock: clk}
}

// Import checks data (a JSON array in the catalogue format) and stores every
// block in one transaction, or none: an *ImportError lists the problems.
// Imported blocks are not system blocks; a block whose code an earlier
// import used is updated, a code of a system block is refused.
func (im *Importer) Import(ctx context.Context, data []byte) (ImportResult, error) {
	parsed, err := parseImport(data, im.dir)
	if err != nil {
		return ImportResult{}, err
	}
	blocks := toBlocks(parsed, false, im.clock)
	codes := make([]string, len(blocks))
	for i, b := range blocks {
		codes[i] = b.Code
	}
	var res ImportResult
	err = database.RunInTx(ctx, im.store.DB(), func(ctx context.Context, tx bun.Tx) error {
		existing, err := im.store.ByCodes(ctx, tx, codes)
		if err != nil {
			return err
		}
		stored := map[string]bool{}
		var p problems
		for _, e := range existing {
			stored[e.Code] = true
			if e.IsSystem {
				p.add("block %d (%s): code: a shipped system block has this code; choose another", slices.Index(codes, e.Code)+1, e.Code)
			}
		}
		if err := p.err(); err != nil {
			return err
		}
		n, err := im.store.Upsert(ctx, tx, blocks, false)
		if err != nil {
			return err
		}
		if n != int64(len(blocks)) {
			// Only a system block written between our read and the upsert
			// (a seed running at the same time) leaves a row out.
			return errors.New("agreements import: a system block took one of the codes during the import; run it again")
		}
		res.Updated = len(stored)
		res.Added = len(blocks) - res.Updated
		return im.store.Bump(ctx, tx)
	})
	if err != nil {
		return ImportResult{}, err
	}
	return res, nil
}
