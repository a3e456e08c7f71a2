package auth

import "context"

// Deferred is the role lookup of a Page route, left to the statement that
// reads the page. The lookup is one indexed read, but on its own it is a
// round trip to the database before the page's: on PostgreSQL the list of
// properties answered 0.77 of the build before workspaces, whose first page
// was one statement (docs/PERFORMANCE.md). The page's statement carries
// Query and hands the row it found to Settle; with no row (not a member, a
// tenant, a user whose own workspace is still to be made) Settle makes the
// guard's lookup, which gives the same answer as on any other route.
type Deferred struct {
	// Query is the membership lookup (Workspaces.MembershipQuery) with its
	// Args: at most one row of workspace_id, role, landlord_id and tenant.
	Query string
	Args  []any

	need Role
	id   int64
	g    *Guard
}

// Settle completes p's admission on a Page route with the membership the
// page's statement found (nil: none): the same role check and answers as
// the guard's. Without a deferred lookup it does nothing.
func (p *Principal) Settle(ctx context.Context, found *Membership) error {
	d := p.Deferred
	if d == nil {
		return nil
	}
	if found != nil {
		return d.g.admit(p, *found, d.need)
	}
	return d.g.lookup(ctx, p, d.id, d.need)
}
