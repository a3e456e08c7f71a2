package listing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
)

// ScanWorkspace is Scan over the rows of p's workspace, column being the
// workspace id of sel's table (sel selects the model's columns, as Scan's
// does). On a Page route, where the guard left p's role to be read
// (auth.Deferred), the page's statement reads it on PostgreSQL: the
// membership lookup is a common table expression the page filters by, and
// each row of the page carries the membership; on SQLite the guard's
// lookup runs first. p is then settled: admitted with the role found, or
// refused as the guard would refuse it.
//
// The statement has no count: a page that is not full tells its total
// (offset plus rows), as in the build before workspaces, which answered a
// first page of a small portfolio in one statement; only a full page is
// counted, by a second statement. An empty page carries no membership, so
// the statement that carries it beside the page, with the count, answers
// then (scanWithMember).
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
	res, found, full, err := pageWithMember(ctx, sel.Clone(), column, p.Deferred, q, order)
	if err != nil {
		return Result{}, err
	}
	if found == nil {
		if res, found, err = scanWithMember(ctx, sel, column, p.Deferred, q, order); err != nil {
			return Result{}, err
		}
		full = false
	}
	if err := p.Settle(ctx, found); err != nil {
		return Result{}, err
	}
	mine := plain.Where(column+" = ?", database.Param{V: p.WorkspaceID})
	if found == nil {
		// No membership came back: the guard's lookup has just admitted p
		// (making the user's own workspace on their first request), so the
		// page is read now that the workspace is known.
		return Scan(ctx, mine, q, order)
	}
	if full && q.counted() {
		text, args, err := database.Render(mine.DB(), mine)
		if err != nil {
			return Result{}, err
		}
		if res.Total, err = count(ctx, mine.DB(), text, args); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// pageWithMember reads the page of sel in the workspace the membership of
// d names, each row with the membership, and no count; found is nil when
// no row came back (no membership, or an empty page), full whether the
// page was full (more rows follow). A page that is not full has its total
// when q asks for one.
//
// The membership is in scalar subqueries of the select list, which
// PostgreSQL runs once each (InitPlans), rather than a join: the page, a
// subquery scan in the order of its index, then needs no sort
// (pgbench, 8 clients: 6,300 statements a second against 5,500 joined).
func pageWithMember(ctx context.Context, sel *bun.SelectQuery, column string, d *auth.Deferred, q Query, order Order) (Result, *auth.Membership, bool, error) {
	db := sel.DB()
	table, dest, err := model(sel)
	if err != nil {
		return Result{}, nil, false, err
	}
	tag := table.Name + ":" + strings.Join(order.orderBy(), ",")
	sel, err = narrow(sel.Where(column+" = (SELECT workspace_id FROM "+memberCTE+")"), table, order, tag, q)
	if err != nil {
		return Result{}, nil, false, err
	}
	stmt := db.NewRaw("WITH "+memberCTE+" AS (?) SELECT "+memberColumnsSQL+", _page.* FROM (?) AS _page ORDER BY "+
		strings.Join(outerOrder(order), ", "), db.NewRaw(d.Query, d.Args...), sel)
	text, binds, err := database.Render(db, stmt)
	if err != nil {
		return Result{}, nil, false, err
	}
	rows := newCountedRows(table, dest)
	if err := database.Scan(ctx, db, text, binds, rows); err != nil {
		return Result{}, nil, false, err
	}
	if !rows.seen {
		return Result{}, nil, false, nil
	}
	var res Result
	n, next, err := trim(dest, table, order, tag, q)
	if err != nil {
		return Result{}, nil, false, err
	}
	res.Next = next
	full := next != ""
	if q.counted() {
		res.Counted, res.Total = true, q.Offset()+n
	}
	return res, rows.membership(), full, nil
}

// outerOrder is order's columns as the columns of the subquery _page.
func outerOrder(order Order) []string {
	outer := make([]string, 0, len(order.cols))
	for _, c := range order.orderBy() {
		outer = append(outer, "_page."+c[strings.LastIndexByte(c, '.')+1:])
	}
	return outer
}

// memberCTE names the membership in a ScanWorkspace statement.
const memberCTE = "_m"

// memberColumnsSQL selects the membership as scalar subqueries, which
// PostgreSQL runs once each (InitPlans): NULL where there is none.
const memberColumnsSQL = "(SELECT workspace_id FROM " + memberCTE + ") AS _m_workspace, (SELECT role FROM " +
	memberCTE + ") AS _m_role, (SELECT landlord_id FROM " + memberCTE + ") AS _m_landlord"

// scanWithMember reads the page of sel in the workspace the membership of
// d names, with the membership and the count: a join of the membership
// and the page, so that an empty page (past the end, or of an empty list)
// still brings the membership and the count. found is nil when there is
// no membership.
func scanWithMember(ctx context.Context, sel *bun.SelectQuery, column string, d *auth.Deferred, q Query, order Order) (Result, *auth.Membership, error) {
	db := sel.DB()
	table, dest, err := model(sel)
	if err != nil {
		return Result{}, nil, err
	}
	tag := table.Name + ":" + strings.Join(order.orderBy(), ",")
	sel = sel.Where(column + " = (SELECT workspace_id FROM " + memberCTE + ")")
	counted := q.counted()
	// The count sits beside the page, not inside it, so that an empty page
	// past the end still carries it.
	total := "NULL"
	var count *bun.SelectQuery
	if counted {
		count = sel.Clone()
		total = "(SELECT count(*) FROM (?) AS list)"
	}
	if sel, err = narrow(sel, table, order, tag, q); err != nil {
		return Result{}, nil, err
	}
	args := []any{db.NewRaw(d.Query, d.Args...)}
	if counted {
		args = append(args, count)
	}
	args = append(args, sel)
	stmt := db.NewRaw("WITH "+memberCTE+" AS (?) SELECT "+
		memberCTE+".workspace_id AS _m_workspace, "+memberCTE+".role AS _m_role, "+
		memberCTE+".landlord_id AS _m_landlord, "+
		total+" AS "+totalColumn+", _page.* FROM "+memberCTE+
		" LEFT JOIN (?) AS _page ON true ORDER BY "+strings.Join(outerOrder(order), ", "), args...)
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
	found := rows.membership()
	var res Result
	if _, res.Next, err = trim(dest, table, order, tag, q); err != nil {
		return Result{}, nil, err
	}
	if counted {
		res.Counted, res.Total = true, rows.total
	}
	return res, found, nil
}

// ReadRecord reads the one record sel selects into sel's model (a pointer
// to a struct) for p, settling p's deferred role (a GET route registered
// with auth.Routes.Read): on PostgreSQL the record's statement reads the
// membership too, so a record is one round trip, not two (a property read
// alone answered 0.65 of the build before workspaces with the lookup
// apart). With no membership the guard's own lookup answers, before the
// record counts: a stranger gets not_a_member, as from any other route.
// It reports whether the record exists; comparing its workspace with p's
// is the caller's.
func ReadRecord(ctx context.Context, sel *bun.SelectQuery, p *auth.Principal) (bool, error) {
	db := sel.DB()
	if p.Deferred != nil && !database.IsPostgres(db) {
		if err := p.Settle(ctx, nil); err != nil {
			return false, err
		}
	}
	if p.Deferred == nil {
		err := database.Select(ctx, db, sel)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return err == nil, err
	}
	tm, ok := sel.GetModel().(bun.TableModel)
	dest := reflect.ValueOf(sel.GetModel().Value())
	if !ok || dest.Kind() != reflect.Pointer || dest.Elem().Kind() != reflect.Struct {
		return false, fmt.Errorf("listing: ReadRecord needs a query of one struct")
	}
	table := tm.Table()
	found := reflect.New(reflect.SliceOf(table.Type))
	d := p.Deferred
	stmt := db.NewRaw("WITH "+memberCTE+" AS (?) SELECT "+memberColumnsSQL+", _r.* FROM (?) AS _r",
		db.NewRaw(d.Query, d.Args...), sel)
	text, binds, err := database.Render(db, stmt)
	if err != nil {
		return false, err
	}
	rows := newCountedRows(table, found.Interface())
	if err := database.Scan(ctx, db, text, binds, rows); err != nil {
		return false, err
	}
	var m *auth.Membership
	if rows.seen && rows.member.workspaceID != 0 {
		m = rows.membership()
	}
	if err := p.Settle(ctx, m); err != nil {
		return false, err
	}
	if found.Elem().Len() == 0 {
		return false, nil
	}
	dest.Elem().Set(found.Elem().Index(0))
	return true, nil
}

// ReadByID is ReadRecord of the record of model's table whose id is rawID,
// a UUID's text, into model (a pointer to a struct). A malformed id is a
// record that does not exist, once p is settled: a stranger gets the
// guard's answer first, whatever the id.
func ReadByID(ctx context.Context, db bun.IDB, model any, rawID string, p *auth.Principal) (bool, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return false, p.Settle(ctx, nil)
	}
	return ReadRecord(ctx, db.NewSelect().Model(model).Where("id = ?", id), p)
}
