// Package ratelimit counts events in sliding windows kept in the database
// (table rate_hits, created by the accounts module's migrations), so every
// instance behind a load balancer enforces the same limits.
package ratelimit

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
)

// Rule allows at most Limit events under Bucket within any Window.
type Rule struct {
	Bucket string
	Limit  int
	Window time.Duration
}

// Hit is an event recorded by Take; Release removes it again.
type Hit struct {
	ids []int64
}

// Limiter records and counts events.
type Limiter struct {
	db    *bun.DB
	clock clock.Clock
}

// New returns a limiter on db.
func New(db *bun.DB, clk clock.Clock) *Limiter { return &Limiter{db: db, clock: clk} }

// retention is how long a row is kept at most; no window may be longer.
const retention = 24 * time.Hour

type row struct {
	bun.BaseModel `bun:"table:rate_hits"`

	ID     int64  `bun:"id,pk,autoincrement"`
	Bucket string `bun:"bucket,notnull"`
	AtMS   int64  `bun:"at_ms,notnull"`
}

// Take records one event under every rule's bucket when none of them is
// exhausted, and returns the Hit. When one is, it records nothing and returns
// how long to wait until every rule allows the event again. Counting and
// recording are one transaction, serialised per bucket, so concurrent callers
// cannot overshoot a limit.
func (l *Limiter) Take(ctx context.Context, rules ...Rule) (Hit, time.Duration, error) {
	var hit Hit
	var wait time.Duration
	err := l.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := lockBuckets(ctx, tx, rules); err != nil {
			return err
		}
		now := l.clock.Now()
		w, err := waitFor(ctx, tx, now, rules)
		if err != nil {
			return err
		}
		if w > 0 {
			wait = w
			return nil
		}
		if _, err := tx.NewDelete().Model((*row)(nil)).Where("at_ms < ?", now.Add(-retention).UnixMilli()).Exec(ctx); err != nil {
			return fmt.Errorf("ratelimit: prune: %w", err)
		}
		for _, r := range rules {
			h := &row{Bucket: r.Bucket, AtMS: now.UnixMilli()}
			if _, err := tx.NewInsert().Model(h).Returning("id").Exec(ctx); err != nil {
				return fmt.Errorf("ratelimit: record: %w", err)
			}
			hit.ids = append(hit.ids, h.ID)
		}
		return nil
	})
	if err != nil {
		return Hit{}, 0, err
	}
	return hit, wait, nil
}

// Wait returns how long to wait until every rule allows one more event, or
// zero when they do now. It records nothing.
func (l *Limiter) Wait(ctx context.Context, rules ...Rule) (time.Duration, error) {
	return waitFor(ctx, l.db, l.clock.Now(), rules)
}

// Release removes the events of h, as if they had not happened.
func (l *Limiter) Release(ctx context.Context, h Hit) error {
	if len(h.ids) == 0 {
		return nil
	}
	if _, err := l.db.NewDelete().Model((*row)(nil)).Where("id IN (?)", bun.List(h.ids)).Exec(ctx); err != nil {
		return fmt.Errorf("ratelimit: release: %w", err)
	}
	return nil
}

// Clear removes every event of bucket.
func (l *Limiter) Clear(ctx context.Context, bucket string) error {
	if _, err := l.db.NewDelete().Model((*row)(nil)).Where("bucket = ?", bucket).Exec(ctx); err != nil {
		return fmt.Errorf("ratelimit: clear: %w", err)
	}
	return nil
}

// lockBuckets serialises transactions on the same buckets. SQLite needs
// nothing: its write transactions already run one at a time.
func lockBuckets(ctx context.Context, tx bun.Tx, rules []Rule) error {
	if !database.IsPostgres(tx) {
		return nil
	}
	buckets := make([]string, 0, len(rules))
	for _, r := range rules {
		buckets = append(buckets, r.Bucket)
	}
	// A fixed order keeps two transactions from waiting on each other.
	slices.Sort(buckets)
	for _, b := range slices.Compact(buckets) {
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", b); err != nil {
			return fmt.Errorf("ratelimit: lock: %w", err)
		}
	}
	return nil
}

func waitFor(ctx context.Context, db bun.IDB, now time.Time, rules []Rule) (time.Duration, error) {
	var longest time.Duration
	for _, r := range rules {
		if r.Window > retention {
			return 0, fmt.Errorf("ratelimit: window %s of %s is longer than %s", r.Window, r.Bucket, retention)
		}
		var times []int64
		err := db.NewSelect().Model((*row)(nil)).Column("at_ms").
			Where("bucket = ?", r.Bucket).Where("at_ms > ?", now.Add(-r.Window).UnixMilli()).
			Order("at_ms DESC").Limit(int64(r.Limit)).Scan(ctx, &times)
		if err != nil {
			return 0, fmt.Errorf("ratelimit: count: %w", err)
		}
		if len(times) < r.Limit {
			continue
		}
		// The limit-th newest event must leave the window before one more fits.
		oldest := time.UnixMilli(times[len(times)-1])
		if w := oldest.Add(r.Window).Sub(now); w > longest {
			longest = w
		}
	}
	return longest, nil
}

// Seconds rounds a wait up to whole seconds, at least 1, for wait and
// Retry-After.
func Seconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}
