package auth

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
)

// Role is the least a route needs of its caller. The roles of a workspace
// nest: an owner may do what a manager may, a manager what an accountant
// may, an accountant what a viewer may.
type Role uint8

// The roles, from the least to the most.
const (
	// Anyone: a public route, no token.
	Anyone Role = iota
	// SignedIn: any signed-in user, acting for themselves (profile,
	// their workspaces, invitations sent to them); no workspace is chosen.
	SignedIn
	// Viewer reads every record of the workspace.
	Viewer
	// Accountant reads everything and writes payments, receipts and charges.
	Accountant
	// Manager reads and writes every record; not members, not billing.
	Manager
	// Owner does everything, members and billing included.
	Owner
	// Admin is the service's administrator (ROLE_ADMIN on the user), not a
	// role in any workspace: it stands apart from the nested roles above,
	// and a route that needs it chooses no workspace.
	Admin
)

// WorkspaceRoles are the roles a member can hold, in the order of Role.
var WorkspaceRoles = []Role{Viewer, Accountant, Manager, Owner}

var roleNames = map[Role]string{
	Anyone: "anyone", SignedIn: "signed_in",
	Viewer: "viewer", Accountant: "accountant", Manager: "manager", Owner: "owner",
	Admin: "admin",
}

// InWorkspace reports whether a route that needs r acts in a workspace.
func (r Role) InWorkspace() bool { return r >= Viewer && r <= Owner }

func (r Role) String() string { return roleNames[r] }

// ParseRole returns the workspace role named s (owner, manager, accountant,
// viewer).
func ParseRole(s string) (Role, bool) {
	for _, r := range WorkspaceRoles {
		if roleNames[r] == s {
			return r, true
		}
	}
	return 0, false
}

// WorkspaceHeader names the workspace a request acts in.
const WorkspaceHeader = "X-Workspace-ID"

// Membership is what the workspaces module tells the guard about a user in
// one workspace.
type Membership struct {
	WorkspaceID int64
	Role        Role
	// Landlord is the user whose own workspace it is: the landlord named on
	// its leases and receipts, and the owner_id of its records.
	Landlord int64
}

// ErrNotMember is returned by Workspaces when the user holds no role in the
// workspace asked for (or it does not exist).
var ErrNotMember = errors.New("not a member")

// ErrTenant is returned by Workspaces when the user holds no role in the
// workspace asked for but is a tenant there: the guard answers 404, so a
// tenant does not learn what the landlord's workspace holds.
var ErrTenant = errors.New("a tenant of the workspace")

// Refuse is the answer to p asking for a record of another workspace: 403
// with forbidden, or 404 with notFound for a user who is a linked tenant
// (a tenant must not learn what exists). Whether p is a tenant is read
// here, on the way out, and not by the lookup every request makes.
func Refuse(ctx context.Context, p Principal, forbidden, notFound string) error {
	if p.tenants != nil {
		tenant, err := p.tenants.IsTenant(ctx, p.UserID)
		if err != nil {
			return err
		}
		if tenant {
			return fault.NotFound(notFound)
		}
	}
	return fault.Forbidden(forbidden)
}

// Workspaces looks up a user's role for one request; the workspaces module
// provides it. Nothing of it is cached: a role change or a removal counts
// on the next request, on every instance.
type Workspaces interface {
	// Membership returns the user's membership of the workspace with id,
	// or of their default workspace when id is 0.
	Membership(ctx context.Context, userID, workspaceID int64) (Membership, error)
	// MembershipQuery is the same lookup as SQL for a statement to carry
	// (Deferred): at most one row of workspace_id, role and landlord_id,
	// none where Membership would make the user's own workspace or refuse,
	// or would take a membership other than the default one.
	MembershipQuery(userID, workspaceID int64) (query string, args []any)
	// IsTenant reports whether the user is a linked tenant of any
	// workspace.
	IsTenant(ctx context.Context, userID int64) (bool, error)
}

// NotAMember is the 403 of a workspace the user holds no role in.
func NotAMember() *fault.Error {
	return fault.New(fault.KindForbidden, "not_a_member", "You are not a member of this workspace.")
}

// roleTooLow is the 403 of a member whose role is below what the route needs.
func roleTooLow(need Role) *fault.Error {
	return fault.New(fault.KindForbidden, "forbidden",
		"This needs the role "+need.String()+" or higher in the workspace.")
}

// workspaceID reads the X-Workspace-ID header: 0 when absent. The value
// is taken strictly, digits only: "+1", "01" and " 1" would otherwise all
// name workspace 1, and a proxy or cache keyed on the header would see
// four workspaces where the service acts in one.
func workspaceID(c *fiber.Ctx) (int64, error) {
	raw := c.Get(WorkspaceHeader)
	if raw == "" {
		return 0, nil
	}
	id, ok := ParseID(raw)
	if !ok || !bareHeader(c.Request().Header.RawHeaders(), raw) {
		return 0, fault.Validation(WorkspaceHeader + ": must be the id of a workspace (a positive integer: digits only, no sign, leading zero or spaces)")
	}
	return id, nil
}

// bareHeader reports whether the header's line as received carries value
// with nothing around it but the one space after the colon. HTTP lets a
// field's value be padded with spaces and tabs, which the parser drops;
// an id sent padded is still refused, as a sign or a leading zero is,
// because a client that pads it has a bug worth hearing about. raw is
// empty when the request was not parsed from the wire: nothing to check.
func bareHeader(raw []byte, value string) bool {
	name := []byte(WorkspaceHeader + ":")
	for len(raw) > 0 {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) < len(name) || !bytes.EqualFold(line[:len(name)], name) {
			continue
		}
		got := line[len(name):]
		got = bytes.TrimPrefix(got, []byte(" "))
		if string(got) != value {
			return false
		}
	}
	return true
}

// ParseID reads a positive decimal id in its one canonical spelling: ASCII
// digits, no sign, no leading zero, no spaces, at most the range of int64.
func ParseID(raw string) (int64, bool) {
	if raw == "" || len(raw) > 19 || raw[0] == '0' {
		return 0, false
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] < '0' || raw[i] > '9' {
			return 0, false
		}
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}

// requestedWorkspace returns the workspace the request names: the
// {workspaceId} of a route under /workspaces, else X-Workspace-ID, else 0
// (the user's default one).
func requestedWorkspace(c *fiber.Ctx) (int64, error) {
	id, err := workspaceID(c)
	if err != nil {
		return 0, err
	}
	// A route under /workspaces/{workspaceId} acts in that one.
	if raw := c.Params("workspaceId"); raw != "" {
		var ok bool
		if id, ok = ParseID(raw); !ok {
			return 0, fault.NotFound("Workspace not found.")
		}
	}
	return id, nil
}

// enter resolves the workspace of the request for p and checks p's role.
func (g *Guard) enter(c *fiber.Ctx, p *Principal, need Role) error {
	if g.workspaces == nil {
		return fault.Unavailable("The workspaces module is switched off.")
	}
	id, err := requestedWorkspace(c)
	if err != nil {
		return err
	}
	return g.lookup(httpserver.Context(c), p, id, need)
}

// lookup reads p's membership of the workspace with id (0: the default
// one) and admits p when it holds need there.
func (g *Guard) lookup(ctx context.Context, p *Principal, id int64, need Role) error {
	m, err := g.workspaces.Membership(ctx, p.UserID, id)
	if errors.Is(err, ErrNotMember) {
		return NotAMember()
	}
	if errors.Is(err, ErrTenant) {
		return fault.NotFound("Not found.")
	}
	if err != nil {
		return err
	}
	return g.admit(p, m, need)
}

// admit sets p acting in m's workspace when m's role is at least need.
func (g *Guard) admit(p *Principal, m Membership, need Role) error {
	if m.Role < need {
		return roleTooLow(need)
	}
	p.WorkspaceID, p.Role, p.Landlord = m.WorkspaceID, m.Role, m.Landlord
	p.tenants, p.Deferred = g.workspaces, nil
	return nil
}

// Declaration is one route with the least role it needs.
type Declaration struct {
	Method string
	// Path is the route's Fiber path under /api/v1 (":propertyId" for a
	// parameter).
	Path string
	Need Role
}

// Routes registers a module's routes, each with the least role it needs
// beside its guard; the guard keeps the declarations (Declared), so a test
// can hold every served route to one.
type Routes struct {
	api fiber.Router
	g   *Guard
}

// Routes returns the route table of a module on api (the /api/v1 group).
func (g *Guard) Routes(api fiber.Router) Routes { return Routes{api: api, g: g} }

// Get registers a GET route that needs need.
func (r Routes) Get(path string, need Role, h ...fiber.Handler) {
	r.add(http.MethodGet, path, need, h)
}

// Post registers a POST route that needs need.
func (r Routes) Post(path string, need Role, h ...fiber.Handler) {
	r.add(http.MethodPost, path, need, h)
}

// Put registers a PUT route that needs need.
func (r Routes) Put(path string, need Role, h ...fiber.Handler) {
	r.add(http.MethodPut, path, need, h)
}

// Patch registers a PATCH route that needs need.
func (r Routes) Patch(path string, need Role, h ...fiber.Handler) {
	r.add(http.MethodPatch, path, need, h)
}

// Delete registers a DELETE route that needs need.
func (r Routes) Delete(path string, need Role, h ...fiber.Handler) {
	r.add(http.MethodDelete, path, need, h)
}

// Page registers a GET route of a list of the workspace whose handler
// reads its page with listing.ScanWorkspace: the guard leaves the role
// lookup to the page's own statement (see Deferred), so the page costs one
// round trip to the database instead of two. The answers are the same as
// those of Get.
func (r Routes) Page(path string, need Role, h ...fiber.Handler) { r.deferred(path, need, h) }

// Read registers a GET route of one record of the workspace whose handler
// reads it with listing.ReadRecord: as Page, the record's statement reads
// the role too. The answers are the same as those of Get.
func (r Routes) Read(path string, need Role, h ...fiber.Handler) { r.deferred(path, need, h) }

func (r Routes) deferred(path string, need Role, h []fiber.Handler) {
	r.declare(http.MethodGet, path, need)
	r.api.Add(http.MethodGet, path, append([]fiber.Handler{r.g.require(need, true)}, h...)...)
}

func (r Routes) add(method, path string, need Role, h []fiber.Handler) {
	r.declare(method, path, need)
	if need != Anyone {
		h = append([]fiber.Handler{r.g.Require(need)}, h...)
	}
	r.api.Add(method, path, h...)
}

func (r Routes) declare(method, path string, need Role) {
	r.g.mu.Lock()
	r.g.declared = append(r.g.declared, Declaration{Method: method, Path: path, Need: need})
	r.g.mu.Unlock()
}

// Declared lists the routes registered through Routes, in order.
func (g *Guard) Declared() []Declaration {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.declared)
}
