// Package ratelimit counts events in sliding windows kept in the database
// (table rate_hits, created by the accounts module's migrations), so every
// instance behind a load balancer enforces the same limits.
package ratelimit

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
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
	// pruned is when (UnixMilli of the clock) Take last removed rows older
	// than retention; it does so at most every pruneEvery.
	pruned atomic.Int64
}

// New returns a limiter on db.
func New(db *bun.DB, clk clock.Clock) *Limiter { return &Limiter{db: db, clock: clk} }

// retention is how long a row is kept at most; no window may be longer.
const retention = 24 * time.Hour

// pruneEvery is how often Take removes rows past retention: rows are kept
// at most retention plus this (and never counted: windows are shorter).
const pruneEvery = time.Minute

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
// cannot overshoot a limit. It costs a handful of statements whatever the
// number of rules (a login's three): lock, count, record (POST /auth/login
// waits for them; BenchmarkLogin in modules/accounts).
func (l *Limiter) Take(ctx context.Context, rules ...Rule) (Hit, time.Duration, error) {
	var hit Hit
	var wait time.Duration
	var prunedAt, prunedBefore int64
	err := database.RunInTx(ctx, l.db, func(ctx context.Context, tx bun.Tx) error {
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
		if last := l.pruned.Load(); now.UnixMilli()-last >= pruneEvery.Milliseconds() && l.pruned.CompareAndSwap(last, now.UnixMilli()) {
			prunedAt, prunedBefore = now.UnixMilli(), last
			if _, err := database.Exec(ctx, tx, tx.NewDelete().Model((*row)(nil)).Where("at_ms < ?", database.Param{V: now.Add(-retention).UnixMilli()})); err != nil {
				return fmt.Errorf("ratelimit: prune: %w", err)
			}
		}
		if len(rules) == 0 {
			return nil
		}
		// Written out rather than from a model: Bun would write at_ms, a
		// new number every millisecond, into the text (database.Param).
		var values strings.Builder
		args := make([]any, 0, 2*len(rules))
		for i, r := range rules {
			if i > 0 {
				values.WriteString(", ")
			}
			values.WriteString("(?, ?)")
			args = append(args, r.Bucket, database.Param{V: now.UnixMilli()})
		}
		insert := tx.NewRaw("INSERT INTO rate_hits (bucket, at_ms) VALUES "+values.String()+" RETURNING id", args...)
		if err := database.Query(ctx, tx, insert, &hit.ids); err != nil {
			return fmt.Errorf("ratelimit: record: %w", err)
		}
		return nil
	})
	if err != nil {
		// The prune, if this call made it, was rolled back: let the next
		// call try again.
		if prunedAt != 0 {
			l.pruned.CompareAndSwap(prunedAt, prunedBefore)
		}
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
	return l.ReleaseAndClear(ctx, h)
}

// Clear removes every event of bucket.
func (l *Limiter) Clear(ctx context.Context, bucket string) error {
	return l.ReleaseAndClear(ctx, Hit{}, bucket)
}

// ReleaseAndClear is Release of h and Clear of each bucket in one
// statement (a successful login gives back its attempt and clears its
// failures).
func (l *Limiter) ReleaseAndClear(ctx context.Context, h Hit, buckets ...string) error {
	q := l.db.NewDelete().Model((*row)(nil))
	if database.IsPostgres(l.db) {
		// See relaxedCommit; the statement is its own transaction.
		q = q.With("relaxed", l.db.NewRaw("SELECT "+relaxedCommit)).Where("EXISTS (SELECT 1 FROM relaxed)")
	}
	switch {
	case len(h.ids) > 0 && len(buckets) > 0:
		q = q.Where("(id ? OR bucket ?)", database.In(h.ids), database.In(buckets))
	case len(h.ids) > 0:
		q = q.Where("id ?", database.In(h.ids))
	case len(buckets) > 0:
		q = q.Where("bucket ?", database.In(buckets))
	default:
		return nil
	}
	if _, err := database.Exec(ctx, l.db, q); err != nil {
		return fmt.Errorf("ratelimit: release: %w", err)
	}
	return nil
}

// relaxedCommit, selected in a PostgreSQL transaction, lets its commit
// return before the WAL is flushed to disk (synchronous_commit off, for
// this transaction only): the rows here are counters a crash of the
// database server may lose the last fraction of a second of, which at
// worst forgets a few attempts; waiting for the flush was most of what a
// login's two writes here cost (BenchmarkLogin in modules/accounts).
// Everything else the service writes keeps the server's setting.
const relaxedCommit = "set_config('synchronous_commit', 'off', true)"

// lockBuckets serialises transactions on the same buckets. SQLite needs
// nothing: its write transactions already run one at a time. On PostgreSQL
// one statement takes a transaction lock per bucket, in the order of their
// keys (the sorted subquery feeds the aggregate in order), so two
// transactions never wait on each other; it also relaxes the transaction's
// commit (relaxedCommit).
func lockBuckets(ctx context.Context, tx bun.Tx, rules []Rule) error {
	if !database.IsPostgres(tx) || len(rules) == 0 {
		return nil
	}
	buckets := make([]string, 0, len(rules))
	for _, r := range rules {
		buckets = append(buckets, r.Bucket)
	}
	_, err := database.Exec(ctx, tx, tx.NewRaw(`SELECT `+relaxedCommit+`, (SELECT count(pg_advisory_xact_lock(k)) FROM
		(SELECT DISTINCT hashtextextended(b, 0) AS k FROM unnest(?::text[]) AS b ORDER BY k) AS keys)`,
		database.Array(buckets)))
	if err != nil {
		return fmt.Errorf("ratelimit: lock: %w", err)
	}
	return nil
}

// waitFor counts every rule's recent events in one query: per rule, how
// many of its Limit newest fall in its window, and the oldest of those.
func waitFor(ctx context.Context, db bun.IDB, now time.Time, rules []Rule) (time.Duration, error) {
	if len(rules) == 0 {
		return 0, nil
	}
	var sql strings.Builder
	args := make([]any, 0, 3*len(rules))
	for i, r := range rules {
		if r.Window > retention {
			return 0, fmt.Errorf("ratelimit: window %s of %s is longer than %s", r.Window, r.Bucket, retention)
		}
		if i > 0 {
			sql.WriteString(" UNION ALL ")
		}
		fmt.Fprintf(&sql, "SELECT %d AS rule, count(*) AS n, coalesce(min(at_ms), 0) AS oldest FROM "+
			"(SELECT at_ms FROM rate_hits WHERE bucket = ? AND at_ms > ? ORDER BY at_ms DESC LIMIT ?) AS r%d", i, i)
		args = append(args, r.Bucket, database.Param{V: now.Add(-r.Window).UnixMilli()}, database.Param{V: int64(r.Limit)})
	}
	var counts []struct {
		Rule   int   `bun:"rule"`
		N      int   `bun:"n"`
		Oldest int64 `bun:"oldest"`
	}
	if err := database.Query(ctx, db, db.NewRaw(sql.String(), args...), &counts); err != nil {
		return 0, fmt.Errorf("ratelimit: count: %w", err)
	}
	var longest time.Duration
	for _, c := range counts {
		r := rules[c.Rule]
		if c.N < r.Limit {
			continue
		}
		// The limit-th newest event must leave the window before one more fits.
		if w := time.UnixMilli(c.Oldest).Add(r.Window).Sub(now); w > longest {
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
