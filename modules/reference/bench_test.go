package reference_test

import (
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// BenchmarkCountries compares GET /api/v1/countries (and one country) with a
// bare Fiber handler sending the same bytes, in the same run.
func BenchmarkCountries(b *testing.B) {
	app := testkit.Start(b, testkit.WithListener())
	testkit.BenchAgainstBare(b, app, "list", "/api/v1/countries", "")
	testkit.BenchAgainstBare(b, app, "one", "/api/v1/countries/de", "")
}
