package ratelimit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/propman/propman/platform/ratelimit"
	"github.com/propman/propman/platform/testkit"
)

// The limiter's table comes with the accounts module: these run on the
// whole app's database, SQLite or PostgreSQL.

func TestTakeWaitReleaseClear(t *testing.T) {
	app := testkit.Start(t)
	l := ratelimit.New(app.DB, app.Clock)
	ctx := context.Background()
	minute := ratelimit.Rule{Bucket: "t:minute", Limit: 3, Window: time.Minute}
	hour := ratelimit.Rule{Bucket: "t:hour", Limit: 5, Window: time.Hour}

	var hits []ratelimit.Hit
	for i := range 3 {
		h, wait, err := l.Take(ctx, minute, hour)
		if err != nil || wait != 0 {
			t.Fatalf("take %d: wait %v, %v", i, wait, err)
		}
		hits = append(hits, h)
		app.Clock.Advance(10 * time.Second)
	}
	// The oldest of the three leaves the minute window 60 s after it came.
	if _, wait, err := l.Take(ctx, minute, hour); err != nil || wait != 30*time.Second {
		t.Fatalf("4th take: wait %v, %v; want 30s", wait, err)
	}
	if wait, err := l.Wait(ctx, minute, hour); err != nil || wait != 30*time.Second {
		t.Fatalf("Wait: %v, %v; want 30s", wait, err)
	}
	// Released: as if it had not happened, under both buckets.
	if err := l.Release(ctx, hits[0]); err != nil {
		t.Fatal(err)
	}
	if _, wait, err := l.Take(ctx, minute, hour); err != nil || wait != 0 {
		t.Fatalf("take after release: wait %v, %v", wait, err)
	}
	// minute is full again: cleared, it takes two more; hour then has 5
	// and waits for its oldest (taken 10 s after the released one).
	if err := l.Clear(ctx, "t:minute"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, wait, err := l.Take(ctx, minute, hour); err != nil || wait != 0 {
			t.Fatalf("take after clear: wait %v, %v", wait, err)
		}
	}
	if _, wait, err := l.Take(ctx, minute, hour); err != nil || wait != time.Hour-20*time.Second {
		t.Fatalf("hour exhausted: wait %v, %v; want %v", wait, err, time.Hour-20*time.Second)
	}
	// A release and a clear in one statement.
	h, _, err := l.Take(ctx, ratelimit.Rule{Bucket: "t:other", Limit: 1, Window: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.ReleaseAndClear(ctx, h, "t:hour"); err != nil {
		t.Fatal(err)
	}
	if wait, err := l.Wait(ctx, ratelimit.Rule{Bucket: "t:other", Limit: 1, Window: time.Minute}, hour); err != nil || wait != 0 {
		t.Fatalf("after ReleaseAndClear: wait %v, %v", wait, err)
	}
}

// TestConcurrentTakesDoNotOvershoot: parallel takes on overlapping buckets,
// listed in different orders, admit exactly the limit and never deadlock.
func TestConcurrentTakesDoNotOvershoot(t *testing.T) {
	app := testkit.Start(t)
	l := ratelimit.New(app.DB, app.Clock)
	ctx := context.Background()
	shared := ratelimit.Rule{Bucket: "c:shared", Limit: 7, Window: time.Hour}
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own := ratelimit.Rule{Bucket: "c:own" + string(rune('a'+g%4)), Limit: 100, Window: time.Hour}
			rules := []ratelimit.Rule{shared, own}
			if g%2 == 1 {
				rules = []ratelimit.Rule{own, shared}
			}
			for range 3 {
				_, wait, err := l.Take(ctx, rules...)
				if err != nil {
					t.Error(err)
					return
				}
				if wait == 0 {
					admitted.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := admitted.Load(); n != 7 {
		t.Fatalf("%d takes admitted, want 7", n)
	}
}

// TestOldRowsArePruned: rows past a day go as new ones arrive.
func TestOldRowsArePruned(t *testing.T) {
	app := testkit.Start(t)
	l := ratelimit.New(app.DB, app.Clock)
	ctx := context.Background()
	rule := ratelimit.Rule{Bucket: "p", Limit: 100, Window: time.Hour}
	for range 3 {
		if _, _, err := l.Take(ctx, rule); err != nil {
			t.Fatal(err)
		}
	}
	app.Clock.Advance(25 * time.Hour)
	if _, _, err := l.Take(ctx, rule); err != nil {
		t.Fatal(err)
	}
	n, err := app.DB.NewSelect().Table("rate_hits").Where("bucket = 'p'").Count(ctx)
	if err != nil || n != 1 {
		t.Fatalf("%d rows left, %v; want 1", n, err)
	}
}
