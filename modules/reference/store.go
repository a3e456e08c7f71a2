package reference

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// loadActive reads the active countries and languages, by code.
func loadActive(ctx context.Context, db *bun.DB) ([]Country, []Language, error) {
	var countries []Country
	var languages []Language
	if err := db.NewSelect().Model(&countries).Where("is_active").Order("code").Scan(ctx); err != nil {
		return nil, nil, fmt.Errorf("load countries: %w", err)
	}
	if err := db.NewSelect().Model(&languages).Where("is_active").Order("code").Scan(ctx); err != nil {
		return nil, nil, fmt.Errorf("load languages: %w", err)
	}
	return countries, languages, nil
}

// upsert writes the countries and languages of the seed in one
// transaction: names, phone codes and currencies follow the seed, while
// an operator's is_active stays as they set it.
func upsert(ctx context.Context, db bun.IDB, cs []Country, ls []Language) error {
	return database.RunInTx(ctx, db, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(&cs).
			On("CONFLICT (code) DO UPDATE").
			Set("name = EXCLUDED.name, phone_code = EXCLUDED.phone_code, currency = EXCLUDED.currency").
			Exec(ctx); err != nil {
			return fmt.Errorf("seed countries: %w", err)
		}
		if _, err := tx.NewInsert().Model(&ls).
			On("CONFLICT (code) DO UPDATE").
			Set("name = EXCLUDED.name, native_name = EXCLUDED.native_name").
			Exec(ctx); err != nil {
			return fmt.Errorf("seed languages: %w", err)
		}
		return nil
	})
}
