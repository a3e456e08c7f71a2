package listing

import (
	"context"
	"reflect"
	"strings"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
)

// ScanWorkspace is Scan over the rows of p's workspace, column being the
// workspace id of sel's table (sel selects the model's columns, as Scan's
// does). On a Page route, where the guard left p's role to be read
// (auth.Deferred), the page's one statement reads it: the membership lookup
// is a common table expression the page filters by, and the page, its
// count and the membership come back in the same rows, on PostgreSQL; on
// SQLite the guard's lookup runs first. p is then settled: admitted with
// the role found, or refused as the guard would refuse it.
func ScanWorkspace(ctx context.Context, sel *bun.SelectQuery, column string, p *auth.Principal, q Query, order Order) (Result, error) {
	if p.Deferred != nil && !database.IsPostgres(sel.DB()) {
		// SQLite is in the process: a statement costs no round trip, and
		// it runs the fused statement slower than the lookup and the page
		// apart (0.71-0.78 of the build before workspaces, against 0.90).
		if err := p.Settle(ctx, nil); err != nil {
			return Result{}, err
		}
	}
	if p.Deferred == nil {
		return Scan(ctx, sel.Where(column+" = ?", database.Param{V: p.WorkspaceID}), q, order)
	}
	plain := sel.Clone()
	res, found, err := scanWithMember(ctx, sel, column, p.Deferred, q, order)
	if err != nil {
		return Result{}, err
	}
	if err := p.Settle(ctx, found); err != nil {
		return Result{}, err
	}
	if found != nil {
		return res, nil
	}
	// No membership came back: the guard's lookup has just admitted p
	// (making the user's own workspace on their first request), so the
	// page is read now that the workspace is known.
	return Scan(ctx, plain.Where(column+" = ?", database.Param{V: p.WorkspaceID}), q, order)
}

// memberCTE names the membership in a ScanWorkspace statement.
const memberCTE = "_m"

// scanWithMember reads the page of sel in the workspace the membership of
// d names, with the membership; found is nil when there is none (and the
// page then empty).
func scanWithMember(ctx context.Context, sel *bun.SelectQuery, column string, d *auth.Deferred, q Query, order Order) (Result, *auth.Membership, error) {
	db := sel.DB()
	table, dest, err := model(sel)
	if err != nil {
		return Result{}, nil, err
	}
	tag := table.Name + ":" + strings.Join(order.orderBy(), ",")
	sel = sel.Where(column + " = (SELECT workspace_id FROM " + memberCTE + ")")
	counted := q.after == nil && !q.uncounted
	// The count sits beside the page, not inside it, so that an empty page
	// past the end still carries it.
	total := "NULL"
	var count *bun.SelectQuery
	if counted {
		count = sel.Clone()
		total = "(SELECT count(*) FROM (?) AS list)"
	} else if q.after != nil {
		keys, err := decodeKeys(table, order, tag, q.after)
		if err != nil {
			return Result{}, nil, err
		}
		sel = sel.Where(order.after(), keys...)
	}
	sel = sel.Order(order.orderBy()...).Limit(int64(q.PerPage + 1))
	if q.after == nil && q.Offset() > 0 {
		sel = sel.Offset(int64(q.Offset()))
	}
	outer := make([]string, 0, len(order.cols))
	for _, c := range order.orderBy() {
		outer = append(outer, "_page."+c[strings.LastIndexByte(c, '.')+1:])
	}
	args := []any{db.NewRaw(d.Query, d.Args...)}
	if counted {
		args = append(args, count)
	}
	args = append(args, sel)
	stmt := db.NewRaw("WITH "+memberCTE+" AS (?) SELECT "+
		memberCTE+".workspace_id AS _m_workspace, "+memberCTE+".role AS _m_role, "+
		memberCTE+".landlord_id AS _m_landlord, "+memberCTE+".tenant AS _m_tenant, "+
		total+" AS "+totalColumn+", _page.* FROM "+memberCTE+
		" LEFT JOIN (?) AS _page ON true ORDER BY "+strings.Join(outer, ", "), args...)
	text, binds, err := database.Render(db, stmt)
	if err != nil {
		return Result{}, nil, err
	}
	rows := newCountedRows(table, dest)
	if err := database.Scan(ctx, db, text, binds, rows); err != nil {
		return Result{}, nil, err
	}
	if !rows.seen {
		return Result{}, nil, nil
	}
	role, _ := auth.ParseRole(rows.member.role)
	found := &auth.Membership{WorkspaceID: rows.member.workspaceID, Role: role,
		Landlord: rows.member.landlord, Tenant: rows.member.tenant}
	var res Result
	page := reflect.ValueOf(dest).Elem()
	if n := page.Len(); n > q.PerPage {
		page.SetLen(q.PerPage)
		if res.Next, err = encodeCursor(table, order, tag, page.Index(q.PerPage-1)); err != nil {
			return Result{}, nil, err
		}
	}
	if counted {
		res.Counted, res.Total = true, rows.total
	}
	return res, found, nil
}
