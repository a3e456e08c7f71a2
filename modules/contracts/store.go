package contracts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Store reads and writes contracts.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound means no contract matched.
var ErrNotFound = errors.New("contract not found")

// ByID returns the contract with id, read on db.
func (s *Store) ByID(ctx context.Context, db bun.IDB, id uuid.UUID) (*Contract, error) {
	c := new(Contract)
	err := database.Select(ctx, db, db.NewSelect().Model(c).Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("contract by id: %w", err)
	}
	return c, nil
}

// Insert adds c.
func (s *Store) Insert(ctx context.Context, db bun.IDB, c *Contract) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(c)); err != nil {
		return fmt.Errorf("insert contract: %w", err)
	}
	return nil
}

// editable are the columns PUT changes.
var editable = []string{"property_id", "tenant_id", "number", "locale", "terms", "currency",
	"start_date", "end_date", "rent_minor", "deposit_minor", "due_day", "allocation_order", "late_fee_base", "bank_account_id", "deposit_interest_rate_e4", "updated_at"}

// UpdateDraft writes the editable columns of c while it is a draft; false
// when it no longer is.
func (s *Store) UpdateDraft(ctx context.Context, db bun.IDB, c *Contract) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model(c).Column(editable...).WherePK().Where("status = ?", Draft))
	if err != nil {
		return false, fmt.Errorf("update contract: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// UpdateSettings writes c's money settings and the account its rent is
// paid to, in any status.
func (s *Store) UpdateSettings(ctx context.Context, db bun.IDB, c *Contract) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model(c).Column("allocation_order", "late_fee_base", "bank_account_id", "deposit_interest_rate_e4", "updated_at").WherePK()); err != nil {
		return fmt.Errorf("update contract settings: %w", err)
	}
	return nil
}

// DeleteDraft deletes the contract while it is a draft; false when it no
// longer is (or is gone).
func (s *Store) DeleteDraft(ctx context.Context, db bun.IDB, id uuid.UUID) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewDelete().Model((*Contract)(nil)).Where("id = ?", id).Where("status = ?", Draft))
	if err != nil {
		return false, fmt.Errorf("delete contract: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ListFilter narrows a list; empty fields match anything.
type ListFilter struct {
	Status     string
	PropertyID string
	TenantID   string
}

// List returns one page of the contracts of p's workspace matching f, in
// creation order, and how many match; today decides active vs ended. On
// the list's Page route the page's statement reads p's role too
// (listing.ScanWorkspace).
func (s *Store) List(ctx context.Context, p *auth.Principal, f ListFilter, today period.Date, q listing.Query) ([]Contract, listing.Result, error) {
	var list []Contract
	sel := s.db.NewSelect().Model(&list)
	switch f.Status {
	case "":
	case Active:
		sel = sel.Where("status = ?", Active).WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.Where("end_date IS NULL").WhereOr("end_date >= ?", today)
		})
	case Ended:
		sel = sel.Where("status = ?", Active).Where("end_date < ?", today)
	case Ending:
		sel = sel.Where("status = ?", Terminated).Where("terminated_on > ?", today)
	case Terminated:
		sel = sel.Where("status = ?", Terminated).Where("terminated_on <= ?", today)
	default:
		sel = sel.Where("status = ?", f.Status)
	}
	if f.PropertyID != "" {
		sel = sel.Where("property_id = ?", f.PropertyID)
	}
	if f.TenantID != "" {
		sel = sel.Where("tenant_id = ?", f.TenantID)
	}
	total, err := listing.ScanWorkspace(ctx, sel, "workspace_id", p, q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list contracts: %w", err)
	}
	return list, total, nil
}

// overlapping reports whether another active contract of the property runs
// on any day of start..end (end zero: open-ended). Terminated contracts
// count until their termination date.
func overlapping(ctx context.Context, tx bun.IDB, c *Contract) (bool, error) {
	q := tx.NewSelect().Model((*Contract)(nil)).
		Where("property_id = ?", c.PropertyID).Where("id <> ?", c.ID).
		WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
			return w.WhereGroup(" OR ", func(w *bun.SelectQuery) *bun.SelectQuery {
				return w.Where("status = ?", Active).WhereGroup(" AND ", func(w *bun.SelectQuery) *bun.SelectQuery {
					return w.Where("end_date IS NULL").WhereOr("end_date >= ?", c.StartDate)
				})
			}).WhereGroup(" OR ", func(w *bun.SelectQuery) *bun.SelectQuery {
				return w.Where("status = ?", Terminated).Where("terminated_on >= ?", c.StartDate)
			})
		})
	if !c.EndDate.IsZero() {
		q = q.Where("start_date <= ?", c.EndDate)
	}
	ok, err := database.Exists(ctx, tx, q)
	if err != nil {
		return false, fmt.Errorf("overlapping contracts: %w", err)
	}
	return ok, nil
}

// setSigned records the stored PDF of contract id's lease when none is
// recorded yet and the contract left draft; false when nothing was.
func (s *Store) setSigned(ctx context.Context, tx bun.Tx, id, documentID uuid.UUID, sha256 string, at time.Time) (bool, error) {
	res, err := database.Exec(ctx, tx, tx.NewUpdate().Model((*Contract)(nil)).
		Set("signed_document_id = ?", documentID).Set("signed_sha256 = ?", sha256).Set("signed_at = ?", at).
		Where("id = ?", id).Where("signed_document_id IS NULL").Where("status <> ?", Draft))
	if err != nil {
		return false, fmt.Errorf("record signed contract: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// AllocationOrdersOf returns, through db, the allocation order of each of
// the contracts with ids that is not oldest first (the default): one
// statement for a batch of payments.
func AllocationOrdersOf(ctx context.Context, db bun.IDB, ids []uuid.UUID) (map[uuid.UUID]string, error) {
	out := map[uuid.UUID]string{}
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID    uuid.UUID `bun:"id"`
		Order string    `bun:"allocation_order"`
	}
	err := database.Query(ctx, db, db.NewSelect().Model((*Contract)(nil)).Column("id", "allocation_order").
		Where("id ?", database.In(ids)).Where("allocation_order <> ?", OldestFirst), &rows)
	if err != nil {
		return nil, fmt.Errorf("allocation orders: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r.Order
	}
	return out, nil
}

// OfProperty reports, through db, whether the contract with id exists and
// is one of the property's (any status): other modules link records to a
// contract (a counter's payer, a payment) and check the link with it. It
// is a function, not a method, so that modules the contracts service
// itself depends on (through the expenses ledger) can use it.
func OfProperty(ctx context.Context, db bun.IDB, propertyID, id uuid.UUID) (bool, error) {
	ok, err := database.Exists(ctx, db, db.NewSelect().Model((*Contract)(nil)).Where("id = ?", id).Where("property_id = ?", propertyID))
	if err != nil {
		return false, fmt.Errorf("contract of property: %w", err)
	}
	return ok, nil
}

// TenantOf returns, through db, the tenant (a contragent id) of the
// contract with id, or false when no contract has it. A payment for a
// contract is the tenant's unless it names another payer.
func TenantOf(ctx context.Context, db bun.IDB, id uuid.UUID) (uuid.UUID, bool, error) {
	var tenant uuid.UUID
	err := database.Query(ctx, db, db.NewSelect().Model((*Contract)(nil)).Column("tenant_id").Where("id = ?", id), &tenant)
	if errors.Is(err, sql.ErrNoRows) {
		return uuid.Nil, false, nil
	}
	if err != nil {
		return uuid.Nil, false, fmt.Errorf("tenant of contract: %w", err)
	}
	return tenant, true, nil
}

// OfWorkspace returns, through db, the workspace's contract with id, or
// nil when the workspace has none with it.
func OfWorkspace(ctx context.Context, db bun.IDB, workspaceID int64, id uuid.UUID) (*Contract, error) {
	c := new(Contract)
	err := database.Select(ctx, db, db.NewSelect().Model(c).Where("id = ?", id).Where("workspace_id = ?", database.Param{V: workspaceID}))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("contract of workspace: %w", err)
	}
	return c, nil
}

// LocaleOf returns, through db, the language of the contract with id; ""
// when there is none.
func LocaleOf(ctx context.Context, db bun.IDB, id uuid.UUID) (string, error) {
	var locale string
	err := database.Query(ctx, db, db.NewSelect().Model((*Contract)(nil)).Column("locale").Where("id = ?", id), &locale)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("language of contract: %w", err)
	}
	return locale, nil
}

// Ending pages, by id, through the workspace's contracts that end from
// from to to: an active one on its end date, a terminated one on the day
// it was terminated for.
func (s *Store) Ending(ctx context.Context, db bun.IDB, workspaceID int64, from, to period.Date, after uuid.UUID, limit int) ([]Contract, error) {
	var list []Contract
	q := db.NewSelect().Model(&list).
		Where("workspace_id = ?", database.Param{V: workspaceID}).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("status = ?", Active).Where("end_date >= ?", from).Where("end_date <= ?", to)
			}).WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				return q.Where("status = ?", Terminated).Where("terminated_on >= ?", from).Where("terminated_on <= ?", to)
			})
		}).
		Where("id > ?", after).OrderExpr("id").Limit(int64(limit))
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("contracts ending: %w", err)
	}
	return list, nil
}

// NamesTenant tells whether a contract names the contragent as its tenant.
func (s *Store) NamesTenant(ctx context.Context, db bun.IDB, contragentID uuid.UUID) (bool, error) {
	used, err := database.Exists(ctx, db, db.NewSelect().Model((*Contract)(nil)).Where("tenant_id = ?", contragentID))
	if err != nil {
		return false, fmt.Errorf("contracts of contragent: %w", err)
	}
	return used, nil
}

// HasSigned tells whether the property has a contract that left draft.
func (s *Store) HasSigned(ctx context.Context, db bun.IDB, propertyID uuid.UUID) (bool, error) {
	has, err := database.Exists(ctx, db, db.NewSelect().Model((*Contract)(nil)).Where("property_id = ?", propertyID).
		Where("status <> ?", Draft))
	if err != nil {
		return false, fmt.Errorf("contracts of property: %w", err)
	}
	return has, nil
}

// DeleteOfProperty deletes the property's contracts.
func (s *Store) DeleteOfProperty(ctx context.Context, db bun.IDB, propertyID uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Contract)(nil)).Where("property_id = ?", propertyID)); err != nil {
		return fmt.Errorf("delete draft contracts: %w", err)
	}
	return nil
}

// signedOf reads, through db, the id, number, terms and late-fee base of
// every contract of the property that left draft.
func signedOf(ctx context.Context, db bun.IDB, propertyID uuid.UUID) ([]Contract, error) {
	var list []Contract
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Column("id", "number", "terms", "late_fee_base").
		Where("property_id = ?", propertyID).Where("status <> ?", Draft)); err != nil {
		return nil, fmt.Errorf("late fees: %w", err)
	}
	return list, nil
}

// Rents returns the contract's rent history, oldest first.
func (s *Store) Rents(ctx context.Context, db bun.IDB, contractID uuid.UUID) ([]Rent, error) {
	var list []Rent
	if err := database.Select(ctx, db, db.NewSelect().Model(&list).Where("contract_id = ?", contractID).Order("from_date")); err != nil {
		return nil, fmt.Errorf("contract rents: %w", err)
	}
	return list, nil
}

// CurrentRent returns the contract's latest rent.
func (s *Store) CurrentRent(ctx context.Context, db bun.IDB, contractID uuid.UUID) (Rent, error) {
	var cur Rent
	if err := database.Select(ctx, db, db.NewSelect().Model(&cur).Where("contract_id = ?", contractID).Order("from_date DESC").Limit(1)); err != nil {
		return cur, fmt.Errorf("current rent: %w", err)
	}
	return cur, nil
}

// SetRent writes the active contract's rent from from on, prior the one
// before; false when the contract is no longer active.
func (s *Store) SetRent(ctx context.Context, db bun.IDB, id uuid.UUID, amount money.Amount, from period.Date, prior money.Amount, at time.Time) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Contract)(nil)).Set("rent_minor = ?", database.Param{V: int64(amount)}).
		Set("rent_from = ?", from).Set("prior_rent_minor = ?", database.Param{V: int64(prior)}).Set("updated_at = ?", at).
		Where("id = ?", id).Where("status = ?", Active))
	if err != nil {
		return false, fmt.Errorf("change rent: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// OfTenants returns one page of the contracts, drafts left out, whose
// tenant is one of the contragents, newest first.
func (s *Store) OfTenants(ctx context.Context, db bun.IDB, tenants []uuid.UUID, q listing.Query) ([]Contract, listing.Result, error) {
	var list []Contract
	sel := db.NewSelect().Model(&list).Where("tenant_id ?", database.In(tenants)).Where("status <> ?", Draft)
	res, err := listing.Scan(ctx, sel, q, listing.Desc("created_at", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("contracts of tenants: %w", err)
	}
	return list, res, nil
}

// OfTenant returns the contract with id when its tenant is one of the
// contragents and it is no draft; ErrNotFound otherwise.
func (s *Store) OfTenant(ctx context.Context, db bun.IDB, tenants []uuid.UUID, id uuid.UUID) (*Contract, error) {
	c := new(Contract)
	err := database.Select(ctx, db, db.NewSelect().Model(c).Where("id = ?", id).
		Where("tenant_id ?", database.In(tenants)).Where("status <> ?", Draft))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("contract of tenant: %w", err)
	}
	return c, nil
}

// Activate makes the draft contract active; false when it is no draft.
func (s *Store) Activate(ctx context.Context, db bun.IDB, id uuid.UUID, at time.Time) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Contract)(nil)).Set("status = ?", Active).Set("updated_at = ?", at).
		Where("id = ?", id).Where("status = ?", Draft))
	if err != nil {
		return false, fmt.Errorf("activate contract: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// Terminate writes the active contract's termination; false when it is
// no longer active.
func (s *Store) Terminate(ctx context.Context, db bun.IDB, id uuid.UUID, in Termination, at time.Time) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Contract)(nil)).
		Set("status = ?", Terminated).Set("terminated_on = ?", in.Date).Set("termination_reason = ?", in.Reason).
		Set("terminated_at = ?", at).Set("terminated_by = ?", in.By).Set("notice_received_on = ?", noticeOn(in.NoticeReceived)).
		Set("updated_at = ?", at).Where("id = ?", id).Where("status = ?", Active))
	if err != nil {
		return false, fmt.Errorf("terminate contract: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}
