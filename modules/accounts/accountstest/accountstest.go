// Package accountstest makes users for other modules' tests.
package accountstest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/platform/testkit"
)

var seq atomic.Int64

// User is a user made for a test, with a valid token.
type User struct {
	ID    int64
	Email string
	Token string
}

// NewUser inserts an active user with the given roles (ROLE_USER when none)
// straight into the database and signs a token for it.
func NewUser(t testing.TB, app *testkit.App, roles ...string) User {
	t.Helper()
	if len(roles) == 0 {
		roles = []string{"ROLE_USER"}
	}
	n := seq.Add(1)
	now := app.Clock.Now()
	u := &accounts.User{
		Email: fmt.Sprintf("user%d@example.com", n), Name: fmt.Sprintf("Test User %d", n),
		PasswordHash: "!unusable", Locale: "en", CountryCode: "DE",
		Roles: accounts.RolesOf(roles...), IsActive: true, CreatedAt: now, UpdatedAt: now,
	}
	if err := accounts.NewStore(app.DB).Insert(context.Background(), app.DB, u); err != nil {
		t.Fatalf("accountstest: %v", err)
	}
	token, err := app.Tokens.Issue(u.ID, u.TokenVersion, now)
	if err != nil {
		t.Fatalf("accountstest: token: %v", err)
	}
	return User{ID: u.ID, Email: u.Email, Token: token}
}
