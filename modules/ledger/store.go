package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Store reads and writes the ledger's tables.
type Store struct {
	db *bun.DB
	// workspaces caches each property's workspace: a property never
	// changes workspace, and a charge names only its property.
	workspaces sync.Map // uuid.UUID -> int64
	// charted holds the workspaces whose chart is known complete: a
	// chart is only ever added to, and EnsureChart commits on its own.
	charted sync.Map // int64 -> struct{}
	// banks maps a bank account to its sub-account's code, and back
	// (bankKey -> string, bankCode -> uuid.UUID). Only rows read, never
	// rows made, are kept: a row read by a money event's transaction was
	// committed by another one, and a sub-account's code never changes
	// nor goes (every instance reads the same).
	banks sync.Map
}

// bankKey names a bank account of a workspace in Store.banks.
type bankKey struct {
	workspace int64
	account   uuid.UUID
}

// bankCode names a sub-account's code of a workspace in Store.banks.
type bankCode struct {
	workspace int64
	code      string
}

// NewStore returns the store.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

// errNoProperty is a property that does not exist.
var errNoProperty = errors.New("ledger: no such property")

// WorkspaceOf returns the workspace of the property, through db.
func (s *Store) WorkspaceOf(ctx context.Context, db bun.IDB, propertyID uuid.UUID) (int64, error) {
	if ws, ok := s.workspaces.Load(propertyID); ok {
		return ws.(int64), nil
	}
	var ws int64
	err := database.Query(ctx, db, db.NewSelect().Table("properties").Column("workspace_id").Where("id = ?", propertyID), &ws)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, errNoProperty
	}
	if err != nil {
		return 0, fmt.Errorf("property workspace: %w", err)
	}
	s.workspaces.Store(propertyID, ws)
	return ws, nil
}

// EnsureChart inserts the accounts of the standard chart the
// workspace lacks. Concurrent callers are safe: the unique key on
// (workspace, code) keeps one of each.
func (s *Store) EnsureChart(ctx context.Context, workspaceID int64, now time.Time) error {
	if _, ok := s.charted.Load(workspaceID); ok {
		return nil
	}
	db := s.db
	rows := make([]Account, len(chart))
	for i, a := range chart {
		id, err := uuid.NewV7()
		if err != nil {
			return fmt.Errorf("account id: %w", err)
		}
		rows[i] = Account{ID: id, WorkspaceID: workspaceID, Code: a.Code, Role: a.Role, CreatedAt: now}
	}
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(&rows).On("CONFLICT (workspace_id, code) DO NOTHING")); err != nil {
		return fmt.Errorf("chart of accounts: %w", err)
	}
	s.charted.Store(workspaceID, struct{}{})
	return nil
}

// BankCode returns, through db, the code of the sub-account of the bank
// that holds the workspace's bank account; ok false when it has none.
func (s *Store) BankCode(ctx context.Context, db bun.IDB, workspaceID int64, bankAccountID uuid.UUID) (string, bool, error) {
	if code, ok := s.banks.Load(bankKey{workspaceID, bankAccountID}); ok {
		return code.(string), true, nil
	}
	var code string
	err := database.Query(ctx, db, db.NewSelect().Table("ledger_accounts").Column("code").
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("bank_account_id = ?", bankAccountID), &code)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("bank sub-account: %w", err)
	}
	s.banks.Store(bankKey{workspaceID, bankAccountID}, code)
	s.banks.Store(bankCode{workspaceID, code}, bankAccountID)
	return code, true, nil
}

// BankAccountOf returns, through db, the bank account a sub-account's
// code of the workspace holds.
func (s *Store) BankAccountOf(ctx context.Context, db bun.IDB, workspaceID int64, code string) (uuid.UUID, error) {
	if id, ok := s.banks.Load(bankCode{workspaceID, code}); ok {
		return id.(uuid.UUID), nil
	}
	var id uuid.UUID
	err := database.Query(ctx, db, db.NewSelect().Table("ledger_accounts").Column("bank_account_id").
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("code = ?", code).Where("bank_account_id IS NOT NULL"), &id)
	if err != nil {
		return uuid.Nil, fmt.Errorf("bank sub-account %s: %w", code, err)
	}
	s.banks.Store(bankKey{workspaceID, id}, code)
	s.banks.Store(bankCode{workspaceID, code}, id)
	return id, nil
}

// AddBankAccount makes, through tx, the sub-account of the bank for the
// workspace's bank account: the next free 1800-n. Codes are unique per
// workspace, so two made at once in one workspace cannot share one: the
// second finds its number taken and takes the next.
func (s *Store) AddBankAccount(ctx context.Context, tx bun.IDB, workspaceID int64, bankAccountID uuid.UUID, now time.Time) error {
	for attempt := 0; attempt < 50; attempt++ {
		var n int
		if err := database.Query(ctx, tx, tx.NewSelect().Table("ledger_accounts").ColumnExpr("COUNT(*)").
			Where("workspace_id = ?", database.Param{V: workspaceID}).Where("bank_account_id IS NOT NULL"), &n); err != nil {
			return fmt.Errorf("bank sub-accounts: %w", err)
		}
		id, err := uuid.NewV7()
		if err != nil {
			return fmt.Errorf("account id: %w", err)
		}
		a := &Account{ID: id, WorkspaceID: workspaceID, Code: fmt.Sprintf("%s-%d", codeOf[journal.Bank], n+1+attempt),
			Role: string(journal.Bank), BankAccountID: &bankAccountID, CreatedAt: now}
		res, err := database.Exec(ctx, tx, tx.NewInsert().Model(a).On("CONFLICT DO NOTHING"))
		if err != nil {
			return fmt.Errorf("bank sub-account: %w", err)
		}
		if k, _ := res.RowsAffected(); k == 1 {
			return nil
		}
		var has int
		if err := database.Query(ctx, tx, tx.NewSelect().Table("ledger_accounts").ColumnExpr("COUNT(*)").
			Where("workspace_id = ?", database.Param{V: workspaceID}).Where("bank_account_id = ?", bankAccountID), &has); err != nil {
			return fmt.Errorf("bank sub-account: %w", err)
		}
		if has > 0 {
			return nil
		}
	}
	return fmt.Errorf("bank sub-account: no free code for %s", bankAccountID)
}

// Write inserts entries and their lines through tx, one statement per
// batch: a payment's journal is one round trip inside its transaction.
// The lines go in before their entries, as the triggers want them: on
// PostgreSQL the lines are a data-modifying CTE that the entries' insert
// reads (so it runs first, and the entry's balance trigger sees its
// lines); on SQLite the two inserts go in one Exec. The deltas of the
// daily totals come from the lines' trigger in the same statement.
func (s *Store) Write(ctx context.Context, tx bun.IDB, entries []EntryRow) error {
	const batch = 200
	for start := 0; start < len(entries); start += batch {
		if err := s.write(ctx, tx, entries[start:min(start+batch, len(entries))]); err != nil {
			return err
		}
	}
	return nil
}

const (
	lineColumns  = "entry_id, workspace_id, entry_date, account_code, contract_id, property_id, currency, debit_minor, credit_minor"
	entryColumns = "id, workspace_id, entry_date, kind, source_table, source_id, memo, currency, total_minor, created_at"
)

func (s *Store) write(ctx context.Context, tx bun.IDB, entries []EntryRow) error {
	pg := database.IsPostgres(tx)
	var b strings.Builder
	args := make([]any, 0, len(entries)*40)
	if pg {
		b.WriteString("WITH l AS (")
	}
	b.WriteString("INSERT INTO ledger_lines (" + lineColumns + ") VALUES ")
	n := 0
	for i := range entries {
		for _, l := range entries[i].Lines {
			if n > 0 {
				b.WriteString(", ")
			}
			n++
			if pg {
				b.WriteString("(CAST(? AS UUID), ?, CAST(? AS DATE), ?, CAST(? AS UUID), CAST(? AS UUID), ?, ?, ?)")
			} else {
				b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?)")
			}
			args = append(args, l.EntryID, database.Param{V: l.WorkspaceID}, l.Date, l.AccountCode, l.ContractID, l.PropertyID,
				l.Currency, database.Param{V: int64(l.Debit)}, database.Param{V: int64(l.Credit)})
		}
	}
	if pg {
		// The entries' insert reads the lines' count: PostgreSQL then
		// runs the CTE to its end first (one it did not read would run
		// after), and the entry trigger's query sees the lines.
		b.WriteString(" RETURNING 1) INSERT INTO ledger_entries (" + entryColumns + ") SELECT v.* FROM (VALUES ")
	} else {
		b.WriteString("; INSERT INTO ledger_entries (" + entryColumns + ") VALUES ")
	}
	for i := range entries {
		e := &entries[i]
		if i > 0 {
			b.WriteString(", ")
		}
		if pg {
			b.WriteString("(CAST(? AS UUID), CAST(? AS BIGINT), CAST(? AS DATE), CAST(? AS VARCHAR), CAST(? AS VARCHAR), CAST(? AS UUID), " +
				"CAST(? AS VARCHAR), CAST(? AS CHAR(3)), CAST(? AS BIGINT), CAST(? AS TIMESTAMPTZ))")
		} else {
			b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
		}
		args = append(args, e.ID, database.Param{V: e.WorkspaceID}, e.Date, e.Kind, e.SourceTable, e.SourceID, e.Memo, e.Currency,
			database.Param{V: int64(e.Total)}, e.CreatedAt)
	}
	if pg {
		b.WriteString(") AS v WHERE (SELECT COUNT(*) FROM l) > 0")
	}
	if _, err := database.Exec(ctx, tx, tx.NewRaw(b.String(), args...)); err != nil {
		return fmt.Errorf("journal entries: %w", err)
	}
	return nil
}

// SourceNet returns, through tx, what the entries of a source left on
// each account, dimension and currency (debit minus credit), zeros left
// out.
func (s *Store) SourceNet(ctx context.Context, tx bun.IDB, table string, id uuid.UUID) ([]net, error) {
	var out []net
	q := tx.NewSelect().TableExpr("ledger_lines AS l").Join("JOIN ledger_entries AS e ON e.id = l.entry_id").
		ColumnExpr("l.workspace_id, l.account_code, l.contract_id, l.property_id, l.currency").
		ColumnExpr("CAST(SUM(l.debit_minor - l.credit_minor) AS BIGINT) AS net").
		Where("e.source_table = ?", table).Where("e.source_id = ?", id).
		GroupExpr("l.workspace_id, l.account_code, l.contract_id, l.property_id, l.currency").
		Having("SUM(l.debit_minor - l.credit_minor) <> 0").
		OrderExpr("l.currency, l.account_code")
	if err := database.Query(ctx, tx, q, &out); err != nil {
		return nil, fmt.Errorf("source net: %w", err)
	}
	return out, nil
}

// Accounts returns the workspace's chart, by code.
func (s *Store) Accounts(ctx context.Context, workspaceID int64) ([]Account, error) {
	var out []Account
	q := s.db.NewSelect().Model(&out).Where("workspace_id = ?", database.Param{V: workspaceID}).Order("code")
	if err := database.Select(ctx, s.db, q); err != nil {
		return nil, fmt.Errorf("accounts: %w", err)
	}
	return out, nil
}

// Balances returns the sums of the workspace's lines per account and
// currency, of entries dated on or before asOf (every entry when zero):
// the daily totals and the deltas not moved into them yet, read in one
// statement (one snapshot: the move is one statement too), whatever the
// number of lines.
func (s *Store) Balances(ctx context.Context, workspaceID int64, asOf period.Date) ([]Balance, error) {
	var out []Balance
	if asOf.IsZero() {
		asOf = period.NewDate(9999, 12, 31)
	}
	ws := database.Param{V: workspaceID}
	q := s.db.NewRaw(`SELECT code, currency, CAST(SUM(d) AS BIGINT) AS debit, CAST(SUM(c) AS BIGINT) AS credit FROM (
		SELECT account_code AS code, currency, debit_minor AS d, credit_minor AS c FROM ledger_totals WHERE workspace_id = ? AND entry_date <= ?
		UNION ALL
		SELECT account_code, currency, debit_minor, credit_minor FROM ledger_deltas WHERE workspace_id = ? AND entry_date <= ?) AS x
		GROUP BY code, currency ORDER BY code, currency`, ws, asOf, ws, asOf)
	if err := database.Query(ctx, s.db, q, &out); err != nil {
		return nil, fmt.Errorf("balances: %w", err)
	}
	return out, nil
}

// compactBatch bounds the deltas one statement moves.
const compactBatch = 50000

// Compact moves committed deltas into the daily totals, compactBatch at
// a time, and reports how many it moved. On PostgreSQL one statement
// deletes them and adds them up (a delta not committed yet is not seen,
// and stays for the next run; SKIP LOCKED lets another instance take
// others); SQLite has one writer, so the transaction's three statements
// see the same deltas.
func (s *Store) Compact(ctx context.Context) (int, error) {
	var moved int
	if database.IsPostgres(s.db) {
		q := s.db.NewRaw(`WITH moved AS (
				DELETE FROM ledger_deltas WHERE id IN (SELECT id FROM ledger_deltas ORDER BY id LIMIT ` + fmt.Sprint(compactBatch) + ` FOR UPDATE SKIP LOCKED)
				RETURNING workspace_id, account_code, currency, entry_date, debit_minor, credit_minor),
			added AS (
				INSERT INTO ledger_totals AS t (workspace_id, account_code, currency, entry_date, debit_minor, credit_minor)
				SELECT workspace_id, account_code, currency, entry_date, SUM(debit_minor), SUM(credit_minor) FROM moved
				GROUP BY workspace_id, account_code, currency, entry_date ORDER BY workspace_id, account_code, currency, entry_date
				ON CONFLICT (workspace_id, account_code, currency, entry_date)
				DO UPDATE SET debit_minor = t.debit_minor + EXCLUDED.debit_minor, credit_minor = t.credit_minor + EXCLUDED.credit_minor)
			SELECT COUNT(*) FROM moved`)
		if err := database.Query(ctx, s.db, q, &moved); err != nil {
			return 0, fmt.Errorf("compact ledger totals: %w", err)
		}
		return moved, nil
	}
	// A transaction takes SQLite's one writer's slot: not for nothing.
	if found, err := database.Exists(ctx, s.db, s.db.NewSelect().TableExpr("ledger_deltas")); err != nil || !found {
		return 0, err
	}
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		var last sql.NullInt64
		if err := database.Query(ctx, tx, tx.NewRaw(`SELECT MAX(id) FROM (SELECT id FROM ledger_deltas ORDER BY id LIMIT `+fmt.Sprint(compactBatch)+`) AS d`), &last); err != nil {
			return err
		}
		if !last.Valid {
			return nil
		}
		upTo := database.Param{V: last.Int64}
		if err := database.Query(ctx, tx, tx.NewRaw(`SELECT COUNT(*) FROM ledger_deltas WHERE id <= ?`, upTo), &moved); err != nil {
			return err
		}
		if _, err := database.Exec(ctx, tx, tx.NewRaw(`INSERT INTO ledger_totals (workspace_id, account_code, currency, entry_date, debit_minor, credit_minor)
			SELECT workspace_id, account_code, currency, entry_date, SUM(debit_minor), SUM(credit_minor) FROM ledger_deltas WHERE id <= ?
			GROUP BY workspace_id, account_code, currency, entry_date
			ON CONFLICT (workspace_id, account_code, currency, entry_date)
			DO UPDATE SET debit_minor = debit_minor + excluded.debit_minor, credit_minor = credit_minor + excluded.credit_minor`, upTo)); err != nil {
			return err
		}
		_, err := database.Exec(ctx, tx, tx.NewRaw(`DELETE FROM ledger_deltas WHERE id <= ?`, upTo))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("compact ledger totals: %w", err)
	}
	return moved, nil
}

// Movements returns a page of the lines of one account of the workspace,
// oldest first, with their entries' kind and memo.
func (s *Store) Movements(ctx context.Context, workspaceID int64, code string, q listing.Query) ([]Movement, listing.Result, error) {
	var out []Movement
	sel := s.db.NewSelect().Model(&out).
		Column("l.id", "l.entry_id", "l.entry_date", "l.contract_id", "l.property_id", "l.currency", "l.debit_minor", "l.credit_minor").
		// Scalar lookups by the entries' key, not a join: the list's
		// order names its columns unqualified.
		ColumnExpr("(SELECT e.kind FROM ledger_entries AS e WHERE e.id = l.entry_id) AS kind").
		ColumnExpr("(SELECT e.memo FROM ledger_entries AS e WHERE e.id = l.entry_id) AS memo").
		Where("l.workspace_id = ?", database.Param{V: workspaceID}).Where("l.account_code = ?", code)
	res, err := listing.Scan(ctx, sel, q, listing.Asc("entry_date", "id"))
	if err != nil {
		return nil, listing.Result{}, err
	}
	return out, res, nil
}

// Journal returns a page of the workspace's entries, oldest first, with
// their lines; from, to (dates) and a contract or property (an entry with
// a line of it) narrow it.
func (s *Store) Journal(ctx context.Context, workspaceID int64, q listing.Query) ([]EntryRow, listing.Result, error) {
	var out []EntryRow
	sel := s.db.NewSelect().Model(&out).Where("e.workspace_id = ?", database.Param{V: workspaceID})
	// listing.Date checked both.
	if d, err := period.ParseDate(q.Get("from")); err == nil {
		sel = sel.Where("e.entry_date >= ?", d)
	}
	if d, err := period.ParseDate(q.Get("to")); err == nil {
		sel = sel.Where("e.entry_date <= ?", d)
	}
	for _, dim := range []string{"contract_id", "property_id"} {
		if v := q.Get(dim); v != "" {
			id, _ := uuid.Parse(v)
			sel = sel.Where("EXISTS (SELECT 1 FROM ledger_lines AS d WHERE d.entry_id = e.id AND d."+dim+" = ?)", id)
		}
	}
	res, err := listing.Scan(ctx, sel, q, listing.Asc("entry_date", "id"))
	if err != nil {
		return nil, listing.Result{}, err
	}
	if len(out) == 0 {
		return out, res, nil
	}
	ids := make([]uuid.UUID, len(out))
	at := make(map[uuid.UUID]int, len(out))
	for i := range out {
		ids[i], at[out[i].ID] = out[i].ID, i
	}
	var lines []Line
	if err := database.Select(ctx, s.db, s.db.NewSelect().Model(&lines).Where("l.entry_id ?", database.In(ids)).Order("l.id")); err != nil {
		return nil, listing.Result{}, fmt.Errorf("journal lines: %w", err)
	}
	for _, l := range lines {
		e := &out[at[l.EntryID]]
		e.Lines = append(e.Lines, l)
	}
	return out, res, nil
}

// ExportRow is one line of the journal export.
type ExportRow struct {
	Date        period.Date  `bun:"entry_date"`
	EntryID     uuid.UUID    `bun:"entry_id"`
	Kind        string       `bun:"kind"`
	Memo        string       `bun:"memo"`
	AccountCode string       `bun:"account_code"`
	AccountName string       `bun:"-"`
	ContractID  *uuid.UUID   `bun:"contract_id"`
	PropertyID  *uuid.UUID   `bun:"property_id"`
	Currency    string       `bun:"currency"`
	Debit       money.Amount `bun:"debit_minor"`
	Credit      money.Amount `bun:"credit_minor"`
}

// JournalRows returns every line of the workspace's journal under the
// list's filters, in the journal's order.
func (s *Store) JournalRows(ctx context.Context, workspaceID int64, q listing.Query) ([]ExportRow, error) {
	var out []ExportRow
	sel := s.db.NewSelect().TableExpr("ledger_lines AS l").Join("JOIN ledger_entries AS e ON e.id = l.entry_id").
		ColumnExpr("l.entry_date, l.entry_id, e.kind, e.memo, l.account_code, l.contract_id, l.property_id, l.currency, l.debit_minor, l.credit_minor").
		Where("l.workspace_id = ?", database.Param{V: workspaceID}).OrderExpr("l.entry_date, l.entry_id, l.id")
	if d, err := period.ParseDate(q.Get("from")); err == nil {
		sel = sel.Where("l.entry_date >= ?", d)
	}
	if d, err := period.ParseDate(q.Get("to")); err == nil {
		sel = sel.Where("l.entry_date <= ?", d)
	}
	for _, dim := range []string{"contract_id", "property_id"} {
		if v := q.Get(dim); v != "" {
			id, _ := uuid.Parse(v)
			sel = sel.Where("EXISTS (SELECT 1 FROM ledger_lines AS d WHERE d.entry_id = e.id AND d."+dim+" = ?)", id)
		}
	}
	if err := database.Query(ctx, s.db, sel, &out); err != nil {
		return nil, fmt.Errorf("journal export: %w", err)
	}
	return out, nil
}

// sourceSum is the sum of a property's lines of one account, source table
// and currency.
type sourceSum struct {
	Code        string `bun:"code"`
	SourceTable string `bun:"source_table"`
	Currency    string `bun:"currency"`
	Debit       int64  `bun:"debit"`
	Credit      int64  `bun:"credit"`
}

// PropertySums sums the property's lines dated from from (zero: the
// first) to to, inclusive, by account, source table and currency.
func (s *Store) PropertySums(ctx context.Context, propertyID uuid.UUID, from, to period.Date) ([]sourceSum, error) {
	var out []sourceSum
	q := s.db.NewSelect().TableExpr("ledger_lines AS l").Join("JOIN ledger_entries AS e ON e.id = l.entry_id").
		ColumnExpr("l.account_code AS code, e.source_table, l.currency").
		ColumnExpr("CAST(SUM(l.debit_minor) AS BIGINT) AS debit, CAST(SUM(l.credit_minor) AS BIGINT) AS credit").
		Where("l.property_id = ?", propertyID).Where("l.entry_date <= ?", to).
		GroupExpr("l.account_code, e.source_table, l.currency").OrderExpr("l.account_code, e.source_table, l.currency")
	if !from.IsZero() {
		q = q.Where("l.entry_date >= ?", from)
	}
	if err := database.Query(ctx, s.db, q, &out); err != nil {
		return nil, fmt.Errorf("property sums: %w", err)
	}
	return out, nil
}

// propertySum is the sum of a property's lines of one account, source
// table and currency.
type propertySum struct {
	PropertyID uuid.UUID `bun:"property_id"`
	sourceSum
}

// WorkspaceSums sums the workspace's lines of the accounts (codes) dated
// from..to, inclusive, by property, account, source table and currency,
// over one property when propertyID is set: one statement whatever the
// number of properties (the account index ranges over each code's dates).
func (s *Store) WorkspaceSums(ctx context.Context, workspaceID int64, propertyID *uuid.UUID, codes []string, from, to period.Date) ([]propertySum, error) {
	var out []propertySum
	q := s.db.NewSelect().TableExpr("ledger_lines AS l").Join("JOIN ledger_entries AS e ON e.id = l.entry_id").
		ColumnExpr("l.property_id, l.account_code AS code, e.source_table, l.currency").
		ColumnExpr("CAST(SUM(l.debit_minor) AS BIGINT) AS debit, CAST(SUM(l.credit_minor) AS BIGINT) AS credit").
		Where("l.workspace_id = ?", database.Param{V: workspaceID}).Where("l.account_code ?", database.In(codes)).
		Where("l.entry_date >= ?", from).Where("l.entry_date <= ?", to).Where("l.property_id IS NOT NULL").
		GroupExpr("l.property_id, l.account_code, e.source_table, l.currency").OrderExpr("l.property_id, l.account_code, e.source_table, l.currency")
	if propertyID != nil {
		q = q.Where("l.property_id = ?", *propertyID)
	}
	if err := database.Query(ctx, s.db, q, &out); err != nil {
		return nil, fmt.Errorf("workspace sums: %w", err)
	}
	return out, nil
}
