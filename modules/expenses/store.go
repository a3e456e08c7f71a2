package expenses

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Store reads and writes expenses and charges.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// ErrNotFound means no record matched.
var ErrNotFound = errors.New("not found")

// InsertExpense adds e on db (the store's database or a transaction).
func (s *Store) InsertExpense(ctx context.Context, db bun.IDB, e *Expense) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(e)); err != nil {
		return fmt.Errorf("insert expense: %w", err)
	}
	return nil
}

// Expense returns the expense id of the property, unless it was deleted.
func (s *Store) Expense(ctx context.Context, propertyID, id uuid.UUID) (*Expense, error) {
	e := new(Expense)
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(e).
		Where("id = ?", id).Where("property_id = ?", propertyID).Where("deleted_at IS NULL"))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("expense by id: %w", err)
	}
	return e, nil
}

// Expenses returns a page of the property's expenses that are not deleted,
// in creation order, and how many there are.
func (s *Store) Expenses(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Expense, listing.Result, error) {
	var list []Expense
	total, err := listing.Scan(ctx, s.db.NewSelect().Model(&list).
		Where("property_id = ?", propertyID).Where("deleted_at IS NULL"), q, listing.Asc("id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list expenses: %w", err)
	}
	return list, total, nil
}

// UpdateExpense writes every editable column of e.
func (s *Store) UpdateExpense(ctx context.Context, db bun.IDB, e *Expense) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model(e).
		Column("name", "type", "amount_minor", "currency", "is_active", "start_date", "end_date", "due_day", "updated_at").
		WherePK())
	if err != nil {
		return fmt.Errorf("update expense: %w", err)
	}
	return nil
}

// SoftDeleteExpense hides the expense; its charges keep referring to it.
func (s *Store) SoftDeleteExpense(ctx context.Context, db bun.IDB, id uuid.UUID, at time.Time) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model((*Expense)(nil)).
		Set("deleted_at = ?", at).Set("updated_at = ?", at).
		Where("id = ?", id).Where("deleted_at IS NULL"))
	if err != nil {
		return fmt.Errorf("delete expense: %w", err)
	}
	return nil
}

// ActiveAutomaticOf returns the active, undeleted automatic expenses of
// the properties with ids (a batch of the billing run), by property and
// id, in one statement.
func (s *Store) ActiveAutomaticOf(ctx context.Context, propertyIDs []uuid.UUID) ([]Expense, error) {
	var list []Expense
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(&list).
		Where("property_id ?", database.In(propertyIDs)).Where("deleted_at IS NULL").
		Where("is_active").Where("type <> ?", Manual).
		Order("property_id", "id"))
	if err != nil {
		return nil, fmt.Errorf("active automatic expenses of a batch: %w", err)
	}
	return list, nil
}

// ActiveAutomatic returns the property's active, undeleted expenses of
// every type but MANUAL, in id order (so concurrent refreshes insert in the
// same order and cannot deadlock each other on PostgreSQL).
func (s *Store) ActiveAutomatic(ctx context.Context, propertyID uuid.UUID) ([]Expense, error) {
	var list []Expense
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(&list).
		Where("property_id = ?", propertyID).Where("deleted_at IS NULL").
		Where("is_active").Where("type <> ?", Manual).
		Order("id"))
	if err != nil {
		return nil, fmt.Errorf("active automatic expenses: %w", err)
	}
	return list, nil
}

// How many charges one INSERT statement carries: a thousand rows of
// arrays are one cheap statement on PostgreSQL; SQLite takes VALUES lists.
const (
	pgInsertBatch     = 5000
	sqliteInsertBatch = 500
)

// InsertChargesOnce inserts, through tx, the generated charges whose
// (origin, period) is not taken yet and skips the others, in few
// statements. The charges are of one refresh or one batch of the billing
// run: they share status and created_at. When a statement fails, its rows are tried one by one
// (each under a savepoint, so the transaction goes on) and one bad row
// fails alone. It returns the rows inserted and the rows that failed; err
// is set only when the database itself fails.
func (s *Store) InsertChargesOnce(ctx context.Context, tx bun.Tx, charges []Charge) (inserted, failed []Charge, err error) {
	size := sqliteInsertBatch
	if database.IsPostgres(tx) {
		size = pgInsertBatch
	}
	byID := make(map[uuid.UUID]int, len(charges))
	for i := range charges {
		byID[charges[i].ID] = i
	}
	keep := func(ids []uuid.UUID) {
		for _, id := range ids {
			inserted = append(inserted, charges[byID[id]])
		}
	}
	for start := 0; start < len(charges); start += size {
		batch := charges[start:min(start+size, len(charges))]
		ids, err := s.insertUnderSavepoint(ctx, tx, batch)
		if err == nil {
			keep(ids)
			continue
		}
		if database.IsUnavailable(err) {
			return nil, nil, err
		}
		for i := range batch {
			ids, err := s.insertUnderSavepoint(ctx, tx, batch[i:i+1])
			if database.IsUnavailable(err) {
				return nil, nil, err
			}
			if err != nil {
				failed = append(failed, batch[i])
				continue
			}
			keep(ids)
		}
	}
	return inserted, failed, nil
}

// chargeKey is a charge's unique key: its origin and period.
type chargeKey struct {
	origin uuid.UUID
	period string
}

// existing returns which of the charges' (origin, period) keys are taken,
// through the unique index, so that a refresh whose charges all exist
// writes nothing. The insert's ON CONFLICT stays the guard against
// concurrent refreshes.
func (s *Store) existing(ctx context.Context, charges []Charge) (map[chargeKey]bool, error) {
	out := map[chargeKey]bool{}
	if len(charges) == 0 {
		return out, nil
	}
	origins := make([]uuid.UUID, 0, len(charges))
	seenOrigin := map[uuid.UUID]bool{}
	var periods []string
	seenPeriod := map[string]bool{}
	for _, c := range charges {
		if !seenOrigin[c.Origin] {
			seenOrigin[c.Origin] = true
			origins = append(origins, c.Origin)
		}
		if !seenPeriod[c.Period] {
			seenPeriod[c.Period] = true
			periods = append(periods, c.Period)
		}
	}
	var rows []struct {
		Origin uuid.UUID `bun:"origin"`
		Period string    `bun:"period"`
	}
	q := s.db.NewSelect().Model((*Charge)(nil)).Column("origin", "period").
		Where("origin ?", database.In(origins)).Where("period ?", database.In(periods))
	if err := database.Query(ctx, s.db, q, &rows); err != nil {
		return nil, fmt.Errorf("existing charges: %w", err)
	}
	for _, r := range rows {
		out[chargeKey{r.Origin, r.Period}] = true
	}
	return out, nil
}

// insertUnderSavepoint inserts charges ignoring conflicts and returns the
// ids of the rows inserted; on an error the transaction is rolled back to
// where it was before, so it can go on.
func (s *Store) insertUnderSavepoint(ctx context.Context, tx bun.Tx, charges []Charge) ([]uuid.UUID, error) {
	if _, err := database.Exec(ctx, tx, tx.NewRaw("SAVEPOINT charges_batch")); err != nil {
		return nil, fmt.Errorf("savepoint: %w", err)
	}
	var ids []uuid.UUID
	var err error
	if database.IsPostgres(tx) {
		err = database.Query(ctx, tx, s.insertUnnest(ctx, tx, charges), &ids)
	} else {
		err = database.Query(ctx, tx, tx.NewInsert().Model(&charges).On("CONFLICT (origin, period) DO NOTHING").Returning("id"), &ids)
	}
	if err != nil {
		if _, rbErr := database.Exec(ctx, tx, tx.NewRaw("ROLLBACK TO SAVEPOINT charges_batch")); rbErr != nil {
			return nil, fmt.Errorf("insert charges: %w (and the rollback to the savepoint: %w)", err, rbErr)
		}
		return nil, fmt.Errorf("insert charges: %w", err)
	}
	if _, err := database.Exec(ctx, tx, tx.NewRaw("RELEASE SAVEPOINT charges_batch")); err != nil {
		return nil, fmt.Errorf("release savepoint: %w", err)
	}
	return ids, nil
}

// insertUnnest inserts generated charges on PostgreSQL as columns of
// arrays: a thousand rows as one VALUES list cost the server far more to
// parse and plan than seven array literals (see the README's figures).
func (s *Store) insertUnnest(ctx context.Context, db bun.IDB, charges []Charge) *bun.RawQuery {
	n := len(charges)
	ids, props, origins, contracts := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	names, currencies, periods, dueDates := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	nameKinds, nameArgs := make([]string, n), make([]string, n)
	amounts := make([]int64, n)
	for i, c := range charges {
		ids[i], props[i], origins[i], names[i] = c.ID.String(), c.PropertyID.String(), c.Origin.String(), c.Name
		nameKinds[i], nameArgs[i] = c.NameKind, c.NameArgs
		if nameKinds[i] == "" {
			nameKinds[i] = chargename.Custom
		}
		amounts[i], currencies[i], periods[i], dueDates[i] = int64(c.Amount), c.Currency, c.Period, c.DueDate.String()
		if c.ContractID != nil {
			contracts[i] = c.ContractID.String()
		}
	}
	// Every charge of one refresh or batch shares status and creation time.
	first := charges[0]
	// contract_id travels as text, '' for none.
	return db.NewRaw(`INSERT INTO charges (id, property_id, expense_id, origin, name, name_kind, name_args, amount_minor, currency, period, due_date, status, contract_id, created_at)
		SELECT u.id, u.property_id, u.origin, u.origin, u.name, u.name_kind, u.name_args, u.amount, u.currency, u.period, u.due_date, ?, NULLIF(u.contract_id, '')::uuid, ?
		FROM unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::date[], ?::text[])
			AS u (id, property_id, origin, name, name_kind, name_args, amount, currency, period, due_date, contract_id)
		ON CONFLICT (origin, period) DO NOTHING
		RETURNING id`,
		first.Status, first.CreatedAt,
		database.Array(ids), database.Array(props), database.Array(origins), database.Array(names), database.Array(nameKinds), database.Array(nameArgs), database.Array(amounts),
		database.Array(currencies), database.Array(periods), database.Array(dueDates), database.Array(contracts),
	)
}

// InsertCharge adds c on db (the store's database or a transaction).
func (s *Store) InsertCharge(ctx context.Context, db bun.IDB, c *Charge) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(c)); err != nil {
		return fmt.Errorf("insert charge: %w", err)
	}
	return nil
}

// Charges returns a page of the property's charges by due date, and how
// many match.
func (s *Store) Charges(ctx context.Context, propertyID uuid.UUID, q listing.Query) ([]Charge, listing.Result, error) {
	var list []Charge
	sel := s.db.NewSelect().Model(&list).Where("property_id = ?", propertyID)
	if v := q.Get("period"); v != "" {
		sel = sel.Where("period = ?", v)
	}
	switch v := q.Get("status"); v {
	case "":
	case Unpaid:
		sel = sel.Where("status = ?", Unpaid).Where("paid_amount_minor = 0")
	case PartiallyPaid:
		sel = sel.Where("status = ?", Unpaid).Where("paid_amount_minor > 0")
	default:
		sel = sel.Where("status = ?", v)
	}
	if v := q.Get("kind"); v != "" {
		sel = sel.Where("kind = ?", v)
	}
	if v := q.Get("contract_id"); v != "" {
		sel = sel.Where("contract_id = ?", v)
	}
	total, err := listing.Scan(ctx, sel, q, listing.Asc("due_date", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list charges: %w", err)
	}
	return list, total, nil
}

// EndContractExpenses ends the contract's undeleted expenses on end, on db:
// those running past end (or without an end) end on it, those starting
// after it are deactivated. It returns how many rows changed.
func (s *Store) EndContractExpenses(ctx context.Context, db bun.IDB, contractID uuid.UUID, end period.Date, at time.Time) (int, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model((*Expense)(nil)).
		Set("end_date = ?", end).Set("updated_at = ?", at).
		Where("contract_id = ?", contractID).Where("deleted_at IS NULL").
		Where("start_date <= ?", end).
		WhereGroup(" AND ", func(q *bun.UpdateQuery) *bun.UpdateQuery {
			return q.Where("end_date IS NULL").WhereOr("end_date > ?", end)
		}))
	if err != nil {
		return 0, fmt.Errorf("end contract expenses: %w", err)
	}
	n, _ := res.RowsAffected()
	res, err = database.Exec(ctx, db, db.NewUpdate().Model((*Expense)(nil)).
		Set("is_active = ?", false).Set("updated_at = ?", at).
		Where("contract_id = ?", contractID).Where("deleted_at IS NULL").
		Where("start_date > ?", end).Where("is_active"))
	if err != nil {
		return 0, fmt.Errorf("deactivate contract expenses: %w", err)
	}
	m, _ := res.RowsAffected()
	return int(n + m), nil
}

// EndExpense sets the end of the undeleted expense id on db.
func (s *Store) EndExpense(ctx context.Context, db bun.IDB, id uuid.UUID, end period.Date, at time.Time) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model((*Expense)(nil)).Set("end_date = ?", end).Set("updated_at = ?", at).
		Where("id = ?", id).Where("deleted_at IS NULL"))
	if err != nil {
		return fmt.Errorf("end expense: %w", err)
	}
	return nil
}

// LastPeriod returns the latest period label of the expense's charges, ""
// when it has none.
func (s *Store) LastPeriod(ctx context.Context, db bun.IDB, expenseID uuid.UUID) (string, error) {
	var p sql.NullString
	err := database.Query(ctx, db, db.NewSelect().Model((*Charge)(nil)).ColumnExpr("MAX(period)").Where("expense_id = ?", expenseID), &p)
	if err != nil {
		return "", fmt.Errorf("last period of expense: %w", err)
	}
	return p.String, nil
}

// Overdue is what of the contract's charges of the property was due
// before day and is still owed, read through db: the balance's overdue.
func Overdue(ctx context.Context, db bun.IDB, propertyID, contractID uuid.UUID, day period.Date) (money.Amount, error) {
	var overdue int64
	err := database.Query(ctx, db, db.NewSelect().TableExpr("(?) AS t", TotalsQuery(db, propertyID, &contractID, day)).
		ColumnExpr("t.overdue"), &overdue)
	if err != nil {
		return 0, fmt.Errorf("overdue: %w", err)
	}
	return money.Amount(overdue), nil
}

// ContractExpensesOfKind returns the contract's undeleted, active
// expenses whose generated name is of kind (chargename), the latest start
// first, read through db: contracts finds there the running prepayment it
// changes after an operating-cost statement.
func ContractExpensesOfKind(ctx context.Context, db bun.IDB, contractID uuid.UUID, kind string) ([]Expense, error) {
	var out []Expense
	q := db.NewSelect().Model(&out).Where("contract_id = ?", contractID).Where("name_kind = ?", kind).
		Where("deleted_at IS NULL").Where("is_active").Order("start_date DESC", "id DESC")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("contract expenses of kind: %w", err)
	}
	return out, nil
}

// OpenChargesOf returns, through db, the open charges of each of the
// contracts as OpenCharges does for one, in one statement: what a batch
// of payments (a bank statement's) is spread over. The caller's
// transaction holds the contracts' properties' locks.
func OpenChargesOf(ctx context.Context, db bun.IDB, contractIDs []uuid.UUID) (map[uuid.UUID][]Charge, error) {
	out := make(map[uuid.UUID][]Charge, len(contractIDs))
	if len(contractIDs) == 0 {
		return out, nil
	}
	var list []Charge
	q := db.NewSelect().Model(&list).Column(openColumns...).
		Where("contract_id ?", database.In(contractIDs)).Where("status = ?", Unpaid).
		Order("due_date", "created_at", "id")
	if err := database.Select(ctx, db, q); err != nil {
		return nil, fmt.Errorf("open charges: %w", err)
	}
	for _, c := range list {
		out[*c.ContractID] = append(out[*c.ContractID], c)
	}
	return out, nil
}

// OverdueOf returns, through db, what each of the contracts owes on
// charges due before day (Overdue's amount), in one statement; a contract
// that owes nothing overdue is not in the map.
func OverdueOf(ctx context.Context, db bun.IDB, contractIDs []uuid.UUID, day period.Date) (map[uuid.UUID]money.Amount, error) {
	out := map[uuid.UUID]money.Amount{}
	if len(contractIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		ContractID uuid.UUID `bun:"contract_id"`
		Overdue    int64     `bun:"overdue"`
	}
	err := database.Query(ctx, db, db.NewSelect().Model((*Charge)(nil)).Column("contract_id").
		ColumnExpr("CAST(COALESCE(SUM(amount_minor - paid_amount_minor), 0) AS BIGINT) AS overdue").
		Where("contract_id ?", database.In(contractIDs)).Where("status <> ?", Cancelled).Where("due_date < ?", day).
		Group("contract_id"), &rows)
	if err != nil {
		return nil, fmt.Errorf("overdue: %w", err)
	}
	for _, r := range rows {
		if r.Overdue != 0 {
			out[r.ContractID] = money.Amount(r.Overdue)
		}
	}
	return out, nil
}

// DueCharge is an open charge of a workspace falling due, with its
// property's name.
type DueCharge struct {
	ID           uuid.UUID    `bun:"id"`
	PropertyID   uuid.UUID    `bun:"property_id"`
	PropertyName string       `bun:"property_name"`
	ContractID   *uuid.UUID   `bun:"contract_id"`
	Name         string       `bun:"name"`
	Currency     string       `bun:"currency"`
	DueDate      period.Date  `bun:"due_date"`
	Open         money.Amount `bun:"open_minor"`
}

// DueIn returns, through db, the open charges of the workspace's
// properties due from..to (both included), soonest first, at most limit:
// one statement over the workspace.
func DueIn(ctx context.Context, db bun.IDB, workspaceID int64, from, to period.Date, limit int) ([]DueCharge, error) {
	var out []DueCharge
	q := db.NewSelect().TableExpr("charges AS ch").Join("JOIN properties AS p ON p.id = ch.property_id").
		ColumnExpr("ch.id, ch.property_id, p.name AS property_name, ch.contract_id, ch.name, ch.currency, ch.due_date").
		ColumnExpr("CAST(ch.amount_minor - ch.paid_amount_minor AS BIGINT) AS open_minor").
		Where("p.workspace_id = ?", database.Param{V: workspaceID}).Where("ch.status = ?", Unpaid).Where("ch.amount_minor > ch.paid_amount_minor").
		Where("ch.due_date >= ?", from).Where("ch.due_date <= ?", to).
		OrderExpr("ch.due_date, ch.id").Limit(int64(limit))
	if err := database.Query(ctx, db, q, &out); err != nil {
		return nil, fmt.Errorf("charges due: %w", err)
	}
	return out, nil
}
