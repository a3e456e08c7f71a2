package accounts

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/propman/propman/modules/accounts/pwhash"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/module"
)

const userUsage = "create --email E --name N --password P|- [--role R]... [--country DE] [--locale en] | role EMAIL ROLE"

// userCommand is `propman user ...`, how operators make the first
// administrator and grant roles.
func userCommand() module.Command {
	return module.Command{Name: "user", Usage: userUsage, Run: func(ctx context.Context, env module.CommandEnv, args []string) error {
		if len(args) == 0 {
			return errors.New("usage: propman user " + userUsage)
		}
		switch args[0] {
		case "create":
			return createUser(ctx, env, os.Stdin, args[1:])
		case "role":
			return grantRole(ctx, env, args[1:])
		default:
			return fmt.Errorf("unknown user command %q; usage: propman user %s", args[0], userUsage)
		}
	}}
}

type roleList []string

func (r *roleList) String() string     { return strings.Join(*r, ",") }
func (r *roleList) Set(v string) error { *r = append(*r, v); return nil }

// CreateUser is `propman user create`; stdin is read when --password is "-",
// which keeps the password out of the process list and shell history.
func CreateUser(ctx context.Context, env module.CommandEnv, stdin io.Reader, args []string) error {
	return createUser(ctx, env, stdin, args)
}

func createUser(ctx context.Context, env module.CommandEnv, stdin io.Reader, args []string) error {
	fs := flag.NewFlagSet("user create", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	email := fs.String("email", "", "email address")
	name := fs.String("name", "", "display name")
	password := fs.String("password", "", `password, or "-" to read it from stdin`)
	country := fs.String("country", "DE", "country code")
	locale := fs.String("locale", DefaultLocale, "language code")
	var roles roleList
	fs.Var(&roles, "role", "extra role such as ROLE_ADMIN (repeatable)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("user create: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("user create: unexpected arguments %v", fs.Args())
	}
	if *password == "-" {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("user create: read password: %w", err)
		}
		*password = strings.TrimRight(line, "\r\n")
	}
	dir, err := reference.NewDirectory(env.DB)
	if err != nil {
		return err
	}
	r := &rules{dir: dir}
	e := NormalizeEmail(*email)
	n := strings.TrimSpace(*name)
	r.email("--email", e)
	r.name("--name", n)
	r.password("--password", *password)
	cc := r.country("--country", *country)
	loc := r.locale("--locale", *locale)
	all := []string{auth.RoleUser}
	for _, role := range roles {
		if !rolePattern.MatchString(role) {
			r.fail(fmt.Sprintf("--role: %q is not a role name such as ROLE_ADMIN", role))
		} else if !slices.Contains(all, role) {
			all = append(all, role)
		}
	}
	if err := r.err(); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			return fmt.Errorf("user create: %s", strings.Join(fe.Details, "; "))
		}
		return fmt.Errorf("user create: %w", err)
	}
	hash, err := pwhash.Hash(ctx, *password)
	if err != nil {
		return err
	}
	now := clock.Real{}.Now()
	u := &User{
		Email: e, Name: n, PasswordHash: hash, Locale: loc, CountryCode: cc,
		Roles: RolesOf(all...), IsActive: true, CreatedAt: now, UpdatedAt: now,
	}
	if err := NewStore(env.DB).Insert(ctx, env.DB, u); err != nil {
		if errors.Is(uniqueError(err), errEmailTaken) {
			return fmt.Errorf("user create: %s is already registered", e)
		}
		return err
	}
	fmt.Fprintf(env.Out, "created user %d %s with roles %s\n", u.ID, u.Email, u.Roles)
	return nil
}

// grantRole is `propman user role EMAIL ROLE`: it adds the role (once).
func grantRole(ctx context.Context, env module.CommandEnv, args []string) error {
	if len(args) != 2 {
		return errors.New("usage: propman user role EMAIL ROLE")
	}
	role := args[1]
	if !rolePattern.MatchString(role) {
		return fmt.Errorf("user role: %q is not a role name such as ROLE_ADMIN", role)
	}
	store := NewStore(env.DB)
	u, err := store.ByEmail(ctx, NormalizeEmail(args[0]))
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("user role: no user with email %s", args[0])
	}
	if err != nil {
		return err
	}
	roles := u.Roles.List()
	if slices.Contains(roles, role) {
		fmt.Fprintf(env.Out, "%s already has %s\n", u.Email, role)
		return nil
	}
	u.Roles = RolesOf(append(roles, role)...)
	u.UpdatedAt = clock.Real{}.Now()
	if err := store.SetRoles(ctx, u); err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "%s now has roles %s\n", u.Email, u.Roles)
	return nil
}
