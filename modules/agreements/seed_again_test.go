package agreements_test

import (
	"context"
	"testing"
	"time"

	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/platform/testkit"
)

// The seed of every start leaves a block it does not change as it was, so
// its updated_at (in the contract print form's ETag) survives a restart;
// a block whose text differs from the catalogue is set back.
func TestSeedAgainChangesOnlyWhatDiffers(t *testing.T) {
	app := testkit.Start(t)
	ctx := context.Background()
	stamps := func() map[string]time.Time {
		var rows []struct {
			Code      string    `bun:"code"`
			UpdatedAt time.Time `bun:"updated_at"`
		}
		if err := app.DB.NewSelect().Table("agreement_blocks").Column("code", "updated_at").Scan(ctx, &rows); err != nil {
			t.Fatal(err)
		}
		out := map[string]time.Time{}
		for _, r := range rows {
			out[r.Code] = r.UpdatedAt
		}
		return out
	}
	before := stamps()
	if len(before) == 0 {
		t.Fatal("no blocks seeded")
	}
	var code string
	for c := range before {
		code = c
		break
	}
	if _, err := app.DB.NewRaw("UPDATE agreement_blocks SET sort_order = sort_order + 100000 WHERE code = ?", code).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if err := agreements.Seed(ctx, app.DB); err != nil {
		t.Fatal(err)
	}
	after := stamps()
	for c, at := range before {
		if c == code {
			continue
		}
		if !after[c].Equal(at) {
			t.Errorf("%s: updated_at moved from %v to %v though nothing changed", c, at, after[c])
		}
	}
	var order int
	if err := app.DB.NewRaw("SELECT sort_order FROM agreement_blocks WHERE code = ?", code).Scan(ctx, &order); err != nil || order >= 100000 {
		t.Fatalf("the changed block was not set back: sort_order %d %v", order, err)
	}
	if after[code].Equal(before[code]) {
		t.Errorf("%s was set back without a new updated_at", code)
	}
}
