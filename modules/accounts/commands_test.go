package accounts_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/propman/propman/modules"
	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/accounts/pwhash"
	"github.com/propman/propman/platform/boot"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

func commandEnv(t *testing.T) (module.CommandEnv, *bytes.Buffer) {
	t.Helper()
	ctx := context.Background()
	cfg := testkit.Config(t, nil)
	db, err := database.Open(ctx, cfg.Database)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := boot.Prepare(ctx, db, modules.Catalog(), slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	return module.CommandEnv{DB: db, Out: &out}, &out
}

func userCmd(t *testing.T) module.Command {
	for _, c := range accounts.Entry().Commands {
		if c.Name == "user" {
			return c
		}
	}
	t.Fatal("no user command")
	return module.Command{}
}

func TestUserCreateAndRole(t *testing.T) {
	env, out := commandEnv(t)
	ctx := context.Background()
	run := userCmd(t).Run
	if err := run(ctx, env, []string{"create", "--email", "Admin@Example.com", "--name", "First Admin",
		"--password", goodPassword, "--role", "ROLE_ADMIN", "--country", "at"}); err != nil {
		t.Fatal(err)
	}
	store := accounts.NewStore(env.DB)
	u, err := store.ByEmail(ctx, "admin@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if u.Roles != "ROLE_USER,ROLE_ADMIN" || u.CountryCode != "AT" || !u.IsActive || u.Locale != "en" {
		t.Fatalf("user = %+v", u)
	}
	if ok, err := pwhash.Verify(ctx, goodPassword, u.PasswordHash); !ok || err != nil {
		t.Fatalf("stored hash does not verify: %v", err)
	}
	if !strings.Contains(out.String(), "created user") {
		t.Fatalf("output %q", out.String())
	}

	if err := run(ctx, env, []string{"role", "admin@example.com", "ROLE_ACCOUNTANT"}); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, env, []string{"role", "ADMIN@example.com", "ROLE_ACCOUNTANT"}); err != nil {
		t.Fatal(err)
	}
	u, _ = store.ByEmail(ctx, "admin@example.com")
	if u.Roles != "ROLE_USER,ROLE_ADMIN,ROLE_ACCOUNTANT" {
		t.Fatalf("roles %q", u.Roles)
	}

	// Password from stdin.
	if err := accounts.CreateUser(ctx, env, strings.NewReader(goodPassword+"\n"),
		[]string{"--email", "ops@example.com", "--name", "Ops", "--password", "-"}); err != nil {
		t.Fatal(err)
	}
	u, _ = store.ByEmail(ctx, "ops@example.com")
	if ok, _ := pwhash.Verify(ctx, goodPassword, u.PasswordHash); !ok {
		t.Fatal("password read from stdin does not verify")
	}
}

func TestUserCommandErrors(t *testing.T) {
	env, _ := commandEnv(t)
	ctx := context.Background()
	run := userCmd(t).Run
	if err := run(ctx, env, []string{"create", "--email", "a@example.com", "--name", "Ann", "--password", goodPassword}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no subcommand", nil, "usage"},
		{"unknown subcommand", []string{"delete"}, "unknown user command"},
		{"duplicate email", []string{"create", "--email", "A@example.com", "--name", "Ann", "--password", goodPassword}, "already registered"},
		{"weak password", []string{"create", "--email", "b@example.com", "--name", "Ann", "--password", "Password1"}, "most common"},
		{"bad email", []string{"create", "--email", "b", "--name", "Ann", "--password", goodPassword}, "--email"},
		{"bad country", []string{"create", "--email", "b@example.com", "--name", "Ann", "--password", goodPassword, "--country", "XX"}, "--country"},
		{"bad role", []string{"create", "--email", "b@example.com", "--name", "Ann", "--password", goodPassword, "--role", "admin"}, "--role"},
		{"unknown flag", []string{"create", "--mail", "b@example.com"}, "flag provided but not defined"},
		{"role of unknown user", []string{"role", "nobody@example.com", "ROLE_ADMIN"}, "no user"},
		{"role badly named", []string{"role", "a@example.com", "root"}, "not a role name"},
		{"role without arguments", []string{"role"}, "usage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := run(ctx, env, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
	n, _ := env.DB.NewSelect().Table("users").Count(ctx)
	if n != 1 {
		t.Fatalf("%d users after failed commands, want 1", n)
	}
}
