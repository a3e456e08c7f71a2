package repairs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/period"
)

// Store holds every query of the module.
type Store struct{ db *bun.DB }

// NewStore returns the store.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

var errNoRow = errors.New("repairs: no such row")

func (st *Store) insertRequest(ctx context.Context, db bun.IDB, r *Request) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(r)); err != nil {
		return fmt.Errorf("insert repair request: %w", err)
	}
	return nil
}

// request reads one request by id; errNoRow when there is none.
func (st *Store) request(ctx context.Context, db bun.IDB, id uuid.UUID) (*Request, error) {
	r := new(Request)
	err := database.Select(ctx, db, db.NewSelect().Model(r).Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRow
	}
	if err != nil {
		return nil, fmt.Errorf("repair request: %w", err)
	}
	return r, nil
}

// filtered applies the list filters status and urgency.
func filtered(sel *bun.SelectQuery, q listing.Query) *bun.SelectQuery {
	if v := q.Get("status"); v != "" {
		sel = sel.Where("status = ?", v)
	}
	if v := q.Get("urgency"); v != "" {
		sel = sel.Where("urgency = ?", v)
	}
	return sel
}

func (st *Store) ofProperty(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Request, listing.Result, error) {
	var list []Request
	sel := filtered(st.db.NewSelect().Model(&list).Where("property_id = ?", propertyID), q)
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("repair requests: %w", err)
	}
	return list, res, nil
}

func (st *Store) ofContract(ctx context.Context, contractID uuid.UUID, q listing.Query) ([]Request, listing.Result, error) {
	var list []Request
	sel := filtered(st.db.NewSelect().Model(&list).Where("contract_id = ?", contractID), q)
	res, err := listing.Scan(ctx, sel, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("repair requests of contract: %w", err)
	}
	return list, res, nil
}

func (st *Store) overdue(ctx context.Context, workspaceID int64, now time.Time, q listing.Query) ([]Request, listing.Result, error) {
	var list []Request
	sel := st.db.NewSelect().Model(&list).Where("workspace_id = ?", database.Param{V: workspaceID}).
		Where("deadline_at < ?", now).Where("status ?", database.In(openStatuses))
	if v := q.Get("status"); v != "" {
		sel = sel.Where("status = ?", v)
	}
	if v := q.Get("urgency"); v != "" {
		sel = sel.Where("urgency = ?", v)
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("deadline_at", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("overdue repair requests: %w", err)
	}
	return list, res, nil
}

// moveRequest writes r's columns when the row is still in state from:
// false when another request moved it first (two slot picks at once).
func (st *Store) moveRequest(ctx context.Context, db bun.IDB, r *Request, from string, cols ...string) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model(r).Column(append(cols, "status", "updated_at")...).
		Where("id = ?", r.ID).Where("status = ?", from))
	if err != nil {
		return false, fmt.Errorf("update repair request: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (st *Store) insertOrder(ctx context.Context, db bun.IDB, o *WorkOrder) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(o)); err != nil {
		return fmt.Errorf("insert work order: %w", err)
	}
	return nil
}

// orderByHash reads the work order of a token's hash; errNoRow when none.
func (st *Store) orderByHash(ctx context.Context, db bun.IDB, hash string) (*WorkOrder, error) {
	o := new(WorkOrder)
	err := database.Select(ctx, db, db.NewSelect().Model(o).Where("token_hash = ?", hash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRow
	}
	if err != nil {
		return nil, fmt.Errorf("work order: %w", err)
	}
	return o, nil
}

// latestOrder reads the request's newest work order; errNoRow when none.
func (st *Store) latestOrder(ctx context.Context, db bun.IDB, requestID uuid.UUID) (*WorkOrder, error) {
	o := new(WorkOrder)
	err := database.Select(ctx, db, db.NewSelect().Model(o).Where("request_id = ?", requestID).OrderExpr("id DESC").Limit(1))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoRow
	}
	if err != nil {
		return nil, fmt.Errorf("latest work order: %w", err)
	}
	return o, nil
}

// latestOrders reads the newest work order of each request of ids.
func (st *Store) latestOrders(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]*WorkOrder, error) {
	out := map[uuid.UUID]*WorkOrder{}
	if len(ids) == 0 {
		return out, nil
	}
	var list []WorkOrder
	if err := database.Select(ctx, st.db, st.db.NewSelect().Model(&list).Where("request_id ?", database.In(ids)).OrderExpr("id")); err != nil {
		return nil, fmt.Errorf("work orders: %w", err)
	}
	for i := range list {
		out[list[i].RequestID] = &list[i]
	}
	return out, nil
}

// moveOrder writes o's columns when the row is still in state from.
func (st *Store) moveOrder(ctx context.Context, db bun.IDB, o *WorkOrder, from string, cols ...string) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model(o).Column(append(cols, "status", "updated_at")...).
		Where("id = ?", o.ID).Where("status = ?", from))
	if err != nil {
		return false, fmt.Errorf("update work order: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (st *Store) deleteOrder(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*WorkOrder)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("take back work order: %w", err)
	}
	return nil
}

// rechargedIn is the sum of the recharges of the contract's requests whose
// repair day falls from from to to (inclusive), through db.
func (st *Store) rechargedIn(ctx context.Context, db bun.IDB, contractID uuid.UUID, from, to period.Date) (int64, error) {
	var sum int64
	err := database.Query(ctx, db, db.NewSelect().Model((*Request)(nil)).ColumnExpr("COALESCE(SUM(recharge_minor), 0)").
		Where("contract_id = ?", contractID).Where("recharge_on >= ?", from).Where("recharge_on <= ?", to), &sum)
	if err != nil {
		return 0, fmt.Errorf("recharged in year: %w", err)
	}
	return sum, nil
}

// setRecharge writes r's recharge when it has none yet: false when another
// request recharged it first.
func (st *Store) setRecharge(ctx context.Context, db bun.IDB, r *Request) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model(r).Column("recharge_charge_id", "recharge_minor", "recharge_on", "updated_at").
		Where("id = ?", r.ID).Where("recharge_charge_id IS NULL"))
	if err != nil {
		return false, fmt.Errorf("recharge repair request: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (st *Store) setPhotos(ctx context.Context, db bun.IDB, r *Request) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model(r).Column("photos", "updated_at").Where("id = ?", r.ID)); err != nil {
		return fmt.Errorf("repair request photos: %w", err)
	}
	return nil
}

// overdueOrder is a work order still open on a request past its deadline,
// with what its reminder says.
type overdueOrder struct {
	WorkOrder `bun:",extend"`

	Title      string    `bun:"title"`
	PropertyID uuid.UUID `bun:"property_id"`
	DeadlineAt time.Time `bun:"deadline_at"`
}

// overdueOrders reads, after the order id after, up to limit work orders
// sent or accepted on requests ordered or scheduled whose deadline is
// before now, not yet reminded on today, across every workspace.
func (st *Store) overdueOrders(ctx context.Context, now time.Time, today period.Date, after uuid.UUID, limit int) ([]overdueOrder, error) {
	var list []overdueOrder
	sel := st.db.NewSelect().Model(&list).ModelTableExpr("repair_work_orders AS o").ColumnExpr("o.*").
		ColumnExpr("r.title, r.property_id, r.deadline_at").
		Join("JOIN repair_requests AS r ON r.id = o.request_id").
		Where("r.status ?", database.In([]string{Ordered, Scheduled})).Where("r.deadline_at < ?", now).
		Where("o.status ?", database.In([]string{OrderSent, OrderAccepted})).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("o.reminded_on IS NULL").WhereOr("o.reminded_on < ?", today)
		}).
		Where("o.id > ?", after).OrderExpr("o.id").Limit(int64(limit))
	if err := database.Select(ctx, st.db, sel); err != nil {
		return nil, fmt.Errorf("overdue work orders: %w", err)
	}
	return list, nil
}

// markReminded sets the order's reminder day to today unless it was
// reminded today already: false then (another run was first).
func (st *Store) markReminded(ctx context.Context, id uuid.UUID, today period.Date) (bool, error) {
	res, err := database.Exec(ctx, st.db, st.db.NewUpdate().Model((*WorkOrder)(nil)).Set("reminded_on = ?", today).
		Where("id = ?", id).WhereGroup(" AND ", func(q *bun.UpdateQuery) *bun.UpdateQuery {
		return q.Where("reminded_on IS NULL").WhereOr("reminded_on < ?", today)
	}))
	if err != nil {
		return false, fmt.Errorf("mark work order reminded: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// OpenStatuses are the statuses of a request still to be dealt with.
var OpenStatuses = []string{Reported, Triaged, Ordered, Scheduled}

// OpenRepair is an open request of a workspace with its deadline.
type OpenRepair struct {
	ID         uuid.UUID `bun:"id"`
	PropertyID uuid.UUID `bun:"property_id"`
	Title      string    `bun:"title"`
	Status     string    `bun:"status"`
	Urgency    string    `bun:"urgency"`
	DeadlineAt time.Time `bun:"deadline_at"`
	CreatedAt  time.Time `bun:"created_at"`
}

// OpenIn returns, through db, how many of the workspace's requests are in
// each open status and the limit oldest open ones: two statements over
// the workspace.
func OpenIn(ctx context.Context, db bun.IDB, workspaceID int64, limit int) (map[string]int, []OpenRepair, error) {
	var counts []struct {
		Status string `bun:"status"`
		N      int    `bun:"n"`
	}
	err := database.Query(ctx, db, db.NewSelect().TableExpr("repair_requests").ColumnExpr("status, COUNT(*) AS n").
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("status IN (?)", bun.In(OpenStatuses)).Group("status"), &counts)
	if err != nil {
		return nil, nil, fmt.Errorf("open repairs: %w", err)
	}
	out := make(map[string]int, len(OpenStatuses))
	for _, c := range counts {
		out[c.Status] = c.N
	}
	var oldest []OpenRepair
	err = database.Query(ctx, db, db.NewSelect().TableExpr("repair_requests").
		ColumnExpr("id, property_id, title, status, urgency, deadline_at, created_at").
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("status IN (?)", bun.In(OpenStatuses)).
		OrderExpr("created_at, id").Limit(int64(limit)), &oldest)
	if err != nil {
		return nil, nil, fmt.Errorf("open repairs: %w", err)
	}
	return out, oldest, nil
}

// OverdueIn returns, through db, the limit open requests of the workspace
// whose deadline passed before now, the longest overdue first.
func OverdueIn(ctx context.Context, db bun.IDB, workspaceID int64, now time.Time, limit int) ([]OpenRepair, error) {
	var out []OpenRepair
	err := database.Query(ctx, db, db.NewSelect().TableExpr("repair_requests").
		ColumnExpr("id, property_id, title, status, urgency, deadline_at, created_at").
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("status IN (?)", bun.In(OpenStatuses)).Where("deadline_at < ?", now).
		OrderExpr("deadline_at, id").Limit(int64(limit)), &out)
	if err != nil {
		return nil, fmt.Errorf("overdue repairs: %w", err)
	}
	return out, nil
}
