package translations_test

import (
	"testing"

	"github.com/propman/propman/modules/accounts/accountstest"
	"github.com/propman/propman/platform/testkit"
)

// BenchmarkTranslations compares GET /api/v1/translations/de with a bare
// Fiber handler sending the same bytes, in the same run. The route is behind
// the guard, whose token check reads the user from the database; "me"
// (GET /api/v1/auth/me, the guard and little else) is measured alongside so
// the guard's share can be told from the dictionary's.
func BenchmarkTranslations(b *testing.B) {
	app := testkit.Start(b, testkit.WithListener())
	user := accountstest.NewUser(b, app)
	testkit.BenchAgainstBare(b, app, "de", "/api/v1/translations/de", user.Token)
	testkit.BenchAgainstBare(b, app, "me", "/api/v1/auth/me", user.Token)
}
