package proposals_test

import (
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// BenchmarkPublicPage reads a published proposal's public page against a
// bare Fiber handler sending the same bytes (the issue asks for at least
// 0.80 of bare Fiber: module/bare-% >= 80).
func BenchmarkPublicPage(b *testing.B) {
	f := start(b, testkit.WithListener())
	testkit.BenchAgainstBare(b, f.app, "page", f.proposal.PublicPath, "")
}
