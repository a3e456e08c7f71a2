package auth

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/httpserver"
)

// Role names.
const (
	RoleUser  = "ROLE_USER"
	RoleAdmin = "ROLE_ADMIN"
)

// Principal is the signed-in user of a request.
type Principal struct {
	UserID   int64
	Roles    []string
	Version  int
	AuthTime time.Time
	// Record is what the Accounts lookup loaded for the check (the accounts
	// module's user row), so that module's handlers need not read it again.
	Record any

	// WorkspaceID is the workspace the request acts in, Role the user's
	// role there and Landlord the user whose own workspace it is; all zero
	// on a route that needs no workspace (SignedIn).
	WorkspaceID int64
	Role        Role
	Landlord    int64
	// tenants answers whether the user is a linked tenant somewhere, for
	// Refuse only: the guard's lookup on every request does not read it.
	tenants Workspaces
	// Deferred is set on a Page route until the page's statement has read
	// the role: the fields above are zero until then.
	Deferred *Deferred
}

// InWorkspace returns the principal acting in the workspace with id, whose
// landlord is landlord, as an owner: what a module's own work needs when
// it reaches records of that workspace on a user's behalf (printing a
// receipt of the workspace, checking a tenant of the property's workspace).
func InWorkspace(workspaceID, landlord int64) Principal {
	return Principal{UserID: landlord, WorkspaceID: workspaceID, Landlord: landlord, Role: Owner}
}

// HasRole reports whether the user has role.
func (p Principal) HasRole(role string) bool { return slices.Contains(p.Roles, role) }

// IsAdmin reports whether the user has ROLE_ADMIN.
func (p Principal) IsAdmin() bool { return p.HasRole(RoleAdmin) }

// ErrNoUser is returned by Accounts when the user is gone or inactive.
var ErrNoUser = errors.New("no active user")

// Accounts looks up the current state of a token's user. The accounts module
// provides it; the guard needs it to honour token versions and deactivation.
type Accounts interface {
	Principal(ctx context.Context, userID int64) (Principal, error)
}

// Guard protects routes with a bearer token and, for a workspace's
// records, the user's role in the workspace.
type Guard struct {
	tokens     *Tokens
	accounts   Accounts
	workspaces Workspaces

	mu       sync.Mutex
	declared []Declaration

	writes atomic.Pointer[WriteCheck]
}

// WriteCheck is asked before every write (any method but GET and HEAD) of
// a route that acts in a workspace, after the role check: an error refuses
// the request (the billing module's 403 read_only for an unpaid
// workspace). It must answer from memory: it runs on every write.
type WriteCheck func(c *fiber.Ctx, p Principal) error

// SetWriteCheck installs the check of every workspace write (nil: none).
func (g *Guard) SetWriteCheck(check WriteCheck) {
	if check == nil {
		g.writes.Store(nil)
		return
	}
	g.writes.Store(&check)
}

// GuardParams are the guard's dependencies; Workspaces is absent when the
// workspaces module is switched off, and then every route that needs a
// workspace answers 503.
type GuardParams struct {
	fx.In
	Tokens     *Tokens
	Accounts   Accounts
	Workspaces Workspaces `optional:"true"`
}

// NewGuard returns a guard.
func NewGuard(p GuardParams) *Guard {
	return &Guard{tokens: p.Tokens, accounts: p.Accounts, workspaces: p.Workspaces}
}

const principalKey = "propman.principal"

// Unauthorized is the 401 of every protected route: {code: 401, message}.
func Unauthorized(message string) *apierror.Error {
	return apierror.WithBody(http.StatusUnauthorized, fiber.Map{"code": http.StatusUnauthorized, "message": message})
}

// Require admits requests with a valid token of an active user whose token
// version is current and, past SignedIn, who holds at least need in the
// request's workspace (X-Workspace-ID, else their default one). The role
// is read on every request, never kept.
func (g *Guard) Require(need Role) fiber.Handler { return g.require(need, false) }

// require is Require; with deferred (a Page route) the role lookup is left
// to the handler's statement.
func (g *Guard) require(need Role, deferred bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		// Answers behind a token are the user's: no cache may keep them
		// (OWASP REST Security), whatever they are, 401s included.
		httpserver.NoStore(c)
		p, err := g.Authenticate(httpserver.Context(c), c.Get(fiber.HeaderAuthorization))
		if err != nil {
			return err
		}
		if need == Admin {
			if !p.IsAdmin() {
				return notAdmin()
			}
		} else if need > SignedIn && deferred && g.workspaces != nil {
			id, err := requestedWorkspace(c)
			if err != nil {
				return err
			}
			query, args := g.workspaces.MembershipQuery(p.UserID, id)
			p.Deferred = &Deferred{Query: query, Args: args, need: need, id: id, g: g}
		} else if need > SignedIn {
			if err := g.enter(c, &p, need); err != nil {
				return err
			}
			if check := g.writes.Load(); check != nil {
				if m := c.Method(); m != fiber.MethodGet && m != fiber.MethodHead {
					if err := (*check)(c, p); err != nil {
						return err
					}
				}
			}
		}
		c.Locals(principalKey, p)
		httpserver.WithValue(c, principalCtxKey{}, p)
		return c.Next()
	}
}

// notAdmin is the 403 of a route for the service's administrators.
func notAdmin() *apierror.Error {
	return apierror.New(http.StatusForbidden, "forbidden", "This is for the service's administrators (ROLE_ADMIN) only.")
}

// Authenticate checks an Authorization header value and returns the user.
func (g *Guard) Authenticate(ctx context.Context, header string) (Principal, error) {
	const prefix = "bearer "
	if len(header) < len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return Principal{}, Unauthorized("JWT Token not found")
	}
	raw := strings.TrimSpace(header[len(prefix):])
	if raw == "" {
		return Principal{}, Unauthorized("JWT Token not found")
	}
	claims, err := g.tokens.Parse(raw)
	if errors.Is(err, ErrExpired) {
		return Principal{}, Unauthorized("Expired JWT Token")
	}
	if err != nil {
		return Principal{}, Unauthorized("Invalid JWT Token")
	}
	return g.principal(ctx, claims)
}

// principal is the user of checked claims, if still active and of the
// claims' token version.
func (g *Guard) principal(ctx context.Context, claims *Claims) (Principal, error) {
	id, _ := claims.UserID()
	p, err := g.accounts.Principal(ctx, id)
	if errors.Is(err, ErrNoUser) {
		return Principal{}, Unauthorized("Invalid JWT Token")
	}
	if err != nil {
		return Principal{}, err
	}
	if p.Version != claims.Version {
		return Principal{}, Unauthorized("Invalid JWT Token")
	}
	p.AuthTime = time.Unix(claims.AuthTime, 0).UTC()
	return p, nil
}

// Current returns the user admitted by Require. It panics on a route without
// the guard, which is a programming error the tests catch.
func Current(c *fiber.Ctx) Principal {
	p, ok := c.Locals(principalKey).(Principal)
	if !ok {
		panic("auth.Current on a route without auth.Guard.Require")
	}
	return p
}

type principalCtxKey struct{}

// FromContext returns the principal of the request whose context ctx is
// (or derives from), admitted by Require; false outside such a request.
func FromContext(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalCtxKey{}).(Principal)
	return p, ok
}

// NewContext returns ctx acting as p: work that runs outside a request
// (a job, a command) names who it acts for.
func NewContext(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalCtxKey{}, p)
}
