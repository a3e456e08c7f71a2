package tools

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
)

// The geocoder's queries: its cache and the gate that spaces requests to
// the provider (see the statements' comment in geocode.go).

// cacheRow is the cache's row for key; sql.ErrNoRows when there is none.
func cacheRow(ctx context.Context, db bun.IDB, key string) (found bool, answer string, fetchedAt time.Time, err error) {
	err = database.Query(ctx, db, db.NewRaw("SELECT found, answer, fetched_at FROM tools_geocode_cache WHERE key = ?", key),
		&found, &answer, &fetchedAt)
	return found, answer, fetchedAt, err
}

func saveCacheRow(ctx context.Context, db bun.IDB, key string, found bool, answer string, now time.Time) error {
	_, err := database.Exec(ctx, db, db.NewRaw(`INSERT INTO tools_geocode_cache (key, found, answer, fetched_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET found = excluded.found, answer = excluded.answer, fetched_at = excluded.fetched_at`,
		key, found, answer, now))
	return err
}

// gateStatements are the gate's statements in the engine's dialect.
type gateStatements struct{ book, booked, lease, since, release string }

func gateOf(db bun.IDB) gateStatements {
	if database.IsPostgres(db) {
		return gateStatements{bookPG, bookedPG, leasePG, sincePG, releasePG}
	}
	return gateStatements{bookSQLite, bookedSQLite, leaseSQLite, sinceSQLite, releaseSQLite}
}

// bookSlot moves the next free slot by slotMS unless the wait would pass
// maxWaitMS, and returns the wait; sql.ErrNoRows when nothing was booked.
func bookSlot(ctx context.Context, db bun.IDB, slotMS, maxWaitMS int64) (int64, error) {
	var ms int64
	slot := database.Param{V: slotMS}
	err := database.Query(ctx, db, db.NewRaw(gateOf(db).book, slot, database.Param{V: maxWaitMS}, slot), &ms)
	return ms, err
}

// bookedWait is how long until the next free slot.
func bookedWait(ctx context.Context, db bun.IDB) (int64, error) {
	var ms int64
	err := database.Query(ctx, db, db.NewRaw(gateOf(db).booked), &ms)
	return ms, err
}

// takeLease takes the lease for holdMS when the last request finished at
// least intervalMS ago; sql.ErrNoRows when it is held.
func takeLease(ctx context.Context, db bun.IDB, holdMS, intervalMS int64) (int64, error) {
	var until int64
	err := database.Query(ctx, db, db.NewRaw(gateOf(db).lease, database.Param{V: holdMS}, database.Param{V: intervalMS}), &until)
	return until, err
}

// leaseWait is how long until the lease can be taken.
func leaseWait(ctx context.Context, db bun.IDB, intervalMS int64) (int64, error) {
	var ms int64
	err := database.Query(ctx, db, db.NewRaw(gateOf(db).since, database.Param{V: intervalMS}), &ms)
	return ms, err
}

// releaseLease ends the lease taken until until, unless it was taken over.
func releaseLease(ctx context.Context, db bun.IDB, until int64) error {
	_, err := database.Exec(ctx, db, db.NewRaw(gateOf(db).release, database.Param{V: until}))
	return err
}
