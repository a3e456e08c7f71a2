package httpserver

import (
	"regexp"
	"sync"
	"testing"
)

// Ids made at once on several goroutines (so from several sources of the
// pool) are version 4 UUIDs, and no two are alike.
func TestNewRequestIDsAreDistinctUUIDs(t *testing.T) {
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	const workers, each = 8, 5000
	ids := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				var id [requestIDLen]byte
				newRequestID(&id)
				ids[w] = append(ids[w], string(id[:]))
			}
		}()
	}
	wg.Wait()
	seen := make(map[string]bool, workers*each)
	for _, list := range ids {
		for _, id := range list {
			if !uuid.MatchString(id) {
				t.Fatalf("request id %q is not a version 4 UUID", id)
			}
			if seen[id] {
				t.Fatalf("request id %q made twice", id)
			}
			seen[id] = true
		}
	}
}
