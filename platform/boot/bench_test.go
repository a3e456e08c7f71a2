package boot_test

import (
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// The platform's own endpoints against a bare Fiber handler writing the same
// bytes: the cost of propman's middleware chain, and of a database ping.
func BenchmarkServiceEndpoints(b *testing.B) {
	app := testkit.Start(b, testkit.WithListener())
	testkit.BenchAgainstBare(b, app, "info", "/api/v1", "")
	testkit.BenchAgainstBare(b, app, "health", "/api/v1/health", "")
}
