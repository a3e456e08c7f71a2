package agreements_test

import (
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// BenchmarkList measures GET /api/v1/agreement-blocks (all blocks, and
// ?country=DE) against a bare Fiber handler and the platform's middleware
// with a handler that only writes the same bytes (testkit.BenchAgainstBare).
func BenchmarkList(b *testing.B) {
	app := testkit.Start(b, testkit.WithListener())
	testkit.BenchAgainstBare(b, app, "all", "/api/v1/agreement-blocks", "")
	testkit.BenchAgainstBare(b, app, "DE", "/api/v1/agreement-blocks?country=DE", "")
}
