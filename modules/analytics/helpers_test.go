package analytics_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/testkit"
)

// fast is the configuration of tests that read what was written: a batch
// waits 10 ms at most.
func fast(opts ...testkit.Option) []testkit.Option {
	return append([]testkit.Option{testkit.WithConfig("modules.analytics.flush", "10ms")}, opts...)
}

func count(t testing.TB, db bun.IDB) int {
	t.Helper()
	var n int
	if err := database.Query(context.Background(), db, db.NewRaw("SELECT count(*) FROM analytics_events"), &n); err != nil {
		t.Fatalf("count: %v", err)
	}
	return n
}

// waitFor waits until the table holds want events, and fails if it holds
// more or never gets there.
func waitFor(t testing.TB, db bun.IDB, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := count(t, db)
		if n == want {
			return
		}
		if n > want || time.Now().After(deadline) {
			t.Fatalf("analytics_events holds %d events, want %d", n, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type event = map[string]any

func events(n int, anon string) map[string]any {
	list := make([]event, n)
	for i := range list {
		list[i] = event{"name": "page_viewed", "anonymous_id": anon,
			"properties": event{"path": fmt.Sprintf("/p/%d", i), "n": i, "ok": true, "ref": nil}}
	}
	return map[string]any{"events": list}
}

func strconvFormat(n int64) string { return fmt.Sprint(n) }
