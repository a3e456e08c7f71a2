package workspaces

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/listing"
)

// Store reads and writes workspaces and their members.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound is returned when no row matches.
var ErrNotFound = errors.New("workspace not found")

func param(v int64) database.Param { return database.Param{V: v} }

// MembershipRow is what the guard's lookup reads.
type MembershipRow struct {
	WorkspaceID int64  `bun:"workspace_id"`
	Role        string `bun:"role"`
	LandlordID  int64  `bun:"landlord_id"`
}

// The guard's lookup, written once: with X-Workspace-ID by the primary
// key, without it by the user's default membership
// (workspace_members_default_key), and only when they have none their
// first. Plain SQL rather than a query builder: it runs on every request
// that acts in a workspace. Each is one index read of the member and one
// of the workspace by its key, no sort, no join to plan: whether the user
// is also a tenant somewhere is asked only when a request is refused
// (IsTenant); it had cost every request a third probe, and the page of a
// list (listing.ScanWorkspace) a hash join and a sort on PostgreSQL.
const (
	membershipColumns = `SELECT m.workspace_id, m.role,
	(SELECT w.landlord_id FROM workspaces AS w WHERE w.id = m.workspace_id) AS landlord_id
FROM workspace_members AS m
WHERE m.user_id = ?`
	membershipOf      = membershipColumns + ` AND m.workspace_id = ?`
	membershipDefault = membershipColumns + ` AND m.is_default`
	membershipFirst   = membershipColumns + ` ORDER BY m.workspace_id LIMIT 1`
)

// Membership reads the user's membership of the workspace with id, or of
// their default one (then their first) when id is 0: one indexed read,
// two for a user who has no default (removed from the workspace that was).
func (s *Store) Membership(ctx context.Context, userID, id int64) (MembershipRow, error) {
	if id > 0 {
		return s.membership(ctx, membershipOf, param(userID), param(id))
	}
	m, err := s.membership(ctx, membershipDefault, param(userID))
	if errors.Is(err, ErrNotFound) {
		m, err = s.membership(ctx, membershipFirst, param(userID))
	}
	return m, err
}

func (s *Store) membership(ctx context.Context, query string, args ...any) (MembershipRow, error) {
	var m MembershipRow
	err := database.Query(ctx, s.db, s.db.NewRaw(query, args...), &m.WorkspaceID, &m.Role, &m.LandlordID)
	if errors.Is(err, sql.ErrNoRows) {
		return MembershipRow{}, ErrNotFound
	}
	if err != nil {
		return MembershipRow{}, fmt.Errorf("membership: %w", err)
	}
	return m, nil
}

// IsTenant reports whether the user is linked as the tenant of any
// contragent (tenant_links' primary key begins with user_id).
func (s *Store) IsTenant(ctx context.Context, userID int64) (bool, error) {
	tenant, err := database.Exists(ctx, s.db, s.db.NewSelect().Model((*TenantLink)(nil)).Where("user_id = ?", param(userID)))
	if err != nil {
		return false, fmt.Errorf("tenant links: %w", err)
	}
	return tenant, nil
}

// CreateOwn makes the user's own workspace, named after them, with them as
// its owner and their default, unless they have one: true when it made it.
// A user who was removed from their own workspace does not get it back.
func (s *Store) CreateOwn(ctx context.Context, userID int64, now time.Time) (bool, error) {
	made := false
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		var id int64
		err := database.Query(ctx, tx, tx.NewRaw(`INSERT INTO workspaces (name, landlord_id, created_at, updated_at)
			SELECT name, id, ?, ? FROM users WHERE id = ?
			ON CONFLICT (landlord_id) DO NOTHING RETURNING id`, now, now, param(userID)), &id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("own workspace: %w", err)
		}
		hasDefault, err := database.Exists(ctx, tx, tx.NewSelect().Model((*Member)(nil)).
			Where("user_id = ?", param(userID)).Where("is_default"))
		if err != nil {
			return fmt.Errorf("own workspace: %w", err)
		}
		m := &Member{WorkspaceID: id, UserID: userID, Role: "owner", IsDefault: !hasDefault, CreatedAt: now, UpdatedAt: now}
		if _, err := database.Exec(ctx, tx, tx.NewInsert().Model(m)); err != nil {
			return fmt.Errorf("own workspace: %w", err)
		}
		made = true
		return nil
	})
	return made, err
}

// Mine lists the user's workspaces with their role, by id.
func (s *Store) Mine(ctx context.Context, userID int64) ([]Mine, error) {
	var list []Mine
	q := s.db.NewSelect().Model(&list).
		ColumnExpr("w.*, m.role, m.is_default").
		ModelTableExpr("workspaces AS w").
		Join("JOIN workspace_members AS m ON m.workspace_id = w.id").
		Where("m.user_id = ?", param(userID)).OrderExpr("w.id")
	if err := database.Select(ctx, s.db, q); err != nil {
		return nil, fmt.Errorf("my workspaces: %w", err)
	}
	return list, nil
}

// ByID reads the workspace with id.
func (s *Store) ByID(ctx context.Context, db bun.IDB, id int64) (*Workspace, error) {
	w := new(Workspace)
	err := database.Select(ctx, db, db.NewSelect().Model(w).Where("id = ?", param(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	return w, nil
}

// Update writes the workspace's name, time zone and schedule.
func (s *Store) Update(ctx context.Context, db bun.IDB, w *Workspace) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(w).Column("name", "time_zone", "schedule", "updated_at").Where("id = ?", param(w.ID)))
	if err != nil {
		return fmt.Errorf("update workspace: %w", err)
	}
	return nil
}

// Schedules is a page of every workspace's schedule, by id after afterID,
// for the periodic runs (jobs.Schedules). A time zone this build does not
// know (an older tzdata) falls back to UTC rather than stopping the runs.
func (s *Store) Schedules(ctx context.Context, afterID int64, limit int) ([]jobs.Schedule, error) {
	var rows []Workspace
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(&rows).Column("id", "time_zone", "schedule").
		Where("id > ?", param(afterID)).OrderExpr("id").Limit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("workspace schedules: %w", err)
	}
	out := make([]jobs.Schedule, len(rows))
	for i, w := range rows {
		loc, err := time.LoadLocation(w.TimeZone)
		if err != nil {
			loc = time.UTC
		}
		out[i] = jobs.Schedule{WorkspaceID: w.ID, Location: loc, At: w.Schedule}
	}
	return out, nil
}

// Members returns one page of the workspace's members with their names,
// by user id (the primary key's order).
func (s *Store) Members(ctx context.Context, workspaceID int64, q listing.Query) ([]MemberView, listing.Result, error) {
	var list []MemberView
	sel := s.db.NewSelect().Model(&list).ModelTableExpr("workspace_members AS m").
		ColumnExpr("m.*, u.name, u.email").
		Join("JOIN users AS u ON u.id = m.user_id").
		Where("m.workspace_id = ?", param(workspaceID))
	res, err := listing.Scan(ctx, sel, q, listing.Asc("user_id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("members: %w", err)
	}
	return list, res, nil
}

// Member reads one member, through db, locking it on PostgreSQL when lock.
func (s *Store) Member(ctx context.Context, db bun.IDB, workspaceID, userID int64) (*MemberView, error) {
	m := new(MemberView)
	q := db.NewSelect().Model(m).ModelTableExpr("workspace_members AS m").
		ColumnExpr("m.*, u.name, u.email").
		Join("JOIN users AS u ON u.id = m.user_id").
		Where("m.workspace_id = ?", param(workspaceID)).
		Where("m.user_id = ?", param(userID))
	err := database.Select(ctx, db, q)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("member: %w", err)
	}
	return m, nil
}

// lockOwners locks the workspace's row, so that two changes to its owners
// cannot both see another owner left and leave none (PostgreSQL; SQLite
// writes one transaction at a time).
func (s *Store) lockOwners(ctx context.Context, tx bun.Tx, workspaceID int64) error {
	if !database.IsPostgres(tx) {
		return nil
	}
	_, err := database.Exec(ctx, tx, tx.NewRaw("SELECT id FROM workspaces WHERE id = ? FOR UPDATE", param(workspaceID)))
	if err != nil {
		return fmt.Errorf("lock workspace: %w", err)
	}
	return nil
}

// Owners counts the workspace's owners through tx.
func (s *Store) Owners(ctx context.Context, tx bun.IDB, workspaceID int64) (int, error) {
	n, err := database.Count(ctx, tx, tx.NewSelect().Model((*Member)(nil)).
		Where("workspace_id = ?", param(workspaceID)).Where("role = 'owner'"))
	if err != nil {
		return 0, fmt.Errorf("count owners: %w", err)
	}
	return n, nil
}

// SetRole writes the member's role through tx.
func (s *Store) SetRole(ctx context.Context, tx bun.IDB, m *Member) error {
	// Not WherePK: Bun writes the integer keys into the text.
	_, err := database.Exec(ctx, tx, tx.NewUpdate().Model(m).Column("role", "updated_at").
		Where("workspace_id = ?", param(m.WorkspaceID)).Where("user_id = ?", param(m.UserID)))
	if err != nil {
		return fmt.Errorf("set role: %w", err)
	}
	return nil
}

// Remove deletes the member through tx.
func (s *Store) Remove(ctx context.Context, tx bun.IDB, workspaceID, userID int64) error {
	_, err := database.Exec(ctx, tx, tx.NewDelete().Model((*Member)(nil)).
		Where("workspace_id = ?", param(workspaceID)).Where("user_id = ?", param(userID)))
	if err != nil {
		return fmt.Errorf("remove member: %w", err)
	}
	return nil
}

// SetDefault makes the workspace the user's default, through tx; false
// when the user is not a member of it. Two statements: PostgreSQL checks
// the one-default index row by row.
func (s *Store) SetDefault(ctx context.Context, tx bun.IDB, userID, workspaceID int64) (bool, error) {
	is, err := database.Exists(ctx, tx, tx.NewSelect().Model((*Member)(nil)).
		Where("user_id = ?", param(userID)).Where("workspace_id = ?", param(workspaceID)))
	if err != nil || !is {
		return false, err
	}
	if _, err := database.Exec(ctx, tx, tx.NewUpdate().Model((*Member)(nil)).Set("is_default = FALSE").
		Where("user_id = ?", param(userID)).Where("is_default")); err != nil {
		return false, fmt.Errorf("default workspace: %w", err)
	}
	if _, err := database.Exec(ctx, tx, tx.NewUpdate().Model((*Member)(nil)).Set("is_default = TRUE").
		Where("user_id = ?", param(userID)).Where("workspace_id = ?", param(workspaceID))); err != nil {
		return false, fmt.Errorf("default workspace: %w", err)
	}
	return true, nil
}

// NameOf is the name of the workspace with id, "" when there is none.
func NameOf(ctx context.Context, db bun.IDB, id int64) (string, error) {
	w := new(Workspace)
	err := database.Select(ctx, db, db.NewSelect().Model(w).Column("id", "name").Where("id = ?", database.Param{V: id}))
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("workspace name: %w", err)
	}
	return w.Name, nil
}
