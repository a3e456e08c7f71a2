package properties_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

// BenchmarkSweepByID reads 2,000 distinct properties by id, one query each,
// as a sweep over a portfolio does: "plain" with Bun's own Scan (the id is
// written into the SQL text, so every call is a statement pgx has not seen:
// a Parse, and with more than 512 texts an eviction, per call), "bound"
// through database.Select (one text, prepared once per connection). One
// iteration is one sweep of each; ms/sweep and µs/call of both are
// reported. Meaningful on
// PostgreSQL (SQLite formats both the same way):
//
//	PROPMAN_TEST_DATABASE_URL=... go test -run '^$' -bench SweepByID -benchtime 3x -count 5 ./modules/properties/
func BenchmarkSweepByID(b *testing.B) {
	app := testkit.Start(b)
	owner := accountstest.NewUser(b, app)
	ctx := context.Background()
	now := time.Now().UTC()
	ids := make([]uuid.UUID, 2000)
	batch := make([]properties.Property, 0, len(ids))
	for i := range ids {
		ids[i] = uuid.New()
		batch = append(batch, properties.Property{ID: ids[i], OwnerID: owner.ID, Name: fmt.Sprintf("Unit %d", i),
			CountryCode: "DE", Currency: "EUR", CreatedAt: now, UpdatedAt: now})
	}
	if _, err := app.DB.NewInsert().Model(&batch).Exec(ctx); err != nil {
		b.Fatal(err)
	}
	sweeps := map[string]func(uuid.UUID) error{
		"plain": func(id uuid.UUID) error {
			p := new(properties.Property)
			return app.DB.NewSelect().Model(p).Where("id = ?", id).Scan(ctx)
		},
		"bound": func(id uuid.UUID) error {
			p := new(properties.Property)
			return database.Select(ctx, app.DB, app.DB.NewSelect().Model(p).Where("id = ?", id))
		},
	}
	// Each iteration runs both sweeps, in turns, and times them apart, so
	// drifting load on a shared machine falls on both alike.
	var took [2]time.Duration
	for i := 0; b.Loop(); i++ {
		for k := range 2 {
			name := [2]string{"plain", "bound"}[(i+k)%2]
			get := sweeps[name]
			t0 := time.Now()
			for _, id := range ids {
				if err := get(id); err != nil {
					b.Fatal(err)
				}
			}
			took[(i+k)%2] += time.Since(t0)
		}
	}
	for k, name := range [2]string{"plain", "bound"} {
		perSweep := float64(took[k].Microseconds()) / 1000 / float64(b.N)
		b.ReportMetric(perSweep, name+"-ms/sweep")
		b.ReportMetric(perSweep*1000/float64(len(ids)), name+"-µs/call")
	}
	b.ReportMetric(0, "ns/op")
}
