package banking

import (
	"context"
	"database/sql"
	"encoding/json"
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

// Store reads and writes bank lines, learnt IBANs and CSV mappings.
type Store struct {
	db *bun.DB
}

// NewStore returns a store on db.
func NewStore(db *bun.DB) *Store { return &Store{db: db} }

var errNotFound = errors.New("banking: not found")

// lineBatch is how many lines one INSERT carries.
const lineBatch = 500

// insertLines adds the lines through db unless the account has a line
// with the entry key, and returns how many it added: fewer than given
// when another import stored some first. The unique index decides, so two
// imports of one file at once insert each line once.
func (s *Store) insertLines(ctx context.Context, db bun.IDB, lines []*BankLine) (int, error) {
	if database.IsPostgres(db) {
		return insertLinesJSON(ctx, db, lines)
	}
	total := 0
	for start := 0; start < len(lines); start += lineBatch {
		batch := lines[start:min(start+lineBatch, len(lines))]
		res, err := database.Exec(ctx, db, db.NewInsert().Model(&batch).On("CONFLICT (bank_account_id, entry_key) DO NOTHING"))
		if err != nil {
			return 0, fmt.Errorf("insert bank lines: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, fmt.Errorf("insert bank lines: %w", err)
		}
		total += int(n)
	}
	return total, nil
}

// lineRow is a line as json_populate_recordset reads it: the columns by
// their names.
type lineRow struct {
	ID               uuid.UUID     `json:"id"`
	WorkspaceID      int64         `json:"workspace_id"`
	BankAccountID    uuid.UUID     `json:"bank_account_id"`
	EntryKey         string        `json:"entry_key"`
	Format           string        `json:"format"`
	BookingDate      string        `json:"booking_date"`
	ValueDate        *string       `json:"value_date"`
	Amount           int64         `json:"amount_minor"`
	Currency         string        `json:"currency"`
	CounterpartyName string        `json:"counterparty_name"`
	CounterpartyIBAN string        `json:"counterparty_iban"`
	Remittance       string        `json:"remittance"`
	BankReference    string        `json:"bank_reference"`
	EndToEndID       string        `json:"end_to_end_id"`
	IsReturn         bool          `json:"is_return"`
	ReturnCode       string        `json:"return_code"`
	Status           string        `json:"status"`
	Reasons          []string      `json:"reasons"`
	ContractID       *uuid.UUID    `json:"contract_id"`
	PropertyID       *uuid.UUID    `json:"property_id"`
	PaymentID        *uuid.UUID    `json:"payment_id"`
	ReturnedBy       *uuid.UUID    `json:"returned_by"`
	Splits           []LineSplit   `json:"splits,omitempty"`
	BillProposal     *BillProposal `json:"bill_proposal"`
	CreatedAt        time.Time     `json:"created_at"`
	UpdatedAt        time.Time     `json:"updated_at"`
}

// insertLinesJSON is insertLines on PostgreSQL: the batch travels as one
// JSON parameter that json_populate_recordset turns into rows, rather
// than as 27 parameters a line (13,500 for a batch, which the driver
// encodes and the server parses one by one).
func insertLinesJSON(ctx context.Context, db bun.IDB, lines []*BankLine) (int, error) {
	rows := make([]lineRow, len(lines))
	for i, l := range lines {
		r := lineRow{ID: l.ID, WorkspaceID: l.WorkspaceID, BankAccountID: l.BankAccountID, EntryKey: l.EntryKey, Format: l.Format,
			BookingDate: l.BookingDate.String(), Amount: int64(l.Amount), Currency: l.Currency, CounterpartyName: l.CounterpartyName,
			CounterpartyIBAN: l.CounterpartyIBAN, Remittance: l.Remittance, BankReference: l.BankReference, EndToEndID: l.EndToEndID,
			IsReturn: l.IsReturn, ReturnCode: l.ReturnCode, Status: l.Status, Reasons: l.Reasons, ContractID: l.ContractID,
			PropertyID: l.PropertyID, PaymentID: l.PaymentID, ReturnedBy: l.ReturnedBy, Splits: l.Splits, BillProposal: l.BillProposal,
			CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt}
		if r.Reasons == nil {
			r.Reasons = []string{}
		}
		if !l.ValueDate.IsZero() {
			v := l.ValueDate.String()
			r.ValueDate = &v
		}
		rows[i] = r
	}
	doc, err := json.Marshal(rows)
	if err != nil {
		return 0, fmt.Errorf("insert bank lines: %w", err)
	}
	res, err := database.Exec(ctx, db, db.NewRaw(`INSERT INTO bank_lines SELECT * FROM json_populate_recordset(NULL::bank_lines, ?::json)
		ON CONFLICT (bank_account_id, entry_key) DO NOTHING`, string(doc)))
	if err != nil {
		return 0, fmt.Errorf("insert bank lines: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("insert bank lines: %w", err)
	}
	return int(n), nil
}

// existing returns, through db, which of the keys the account's lines
// have.
func (s *Store) existing(ctx context.Context, db bun.IDB, accountID uuid.UUID, keys []string) (map[string]bool, error) {
	var found []string
	err := database.Query(ctx, db, db.NewSelect().Model((*BankLine)(nil)).Column("entry_key").
		Where("bank_account_id = ?", accountID).Where("entry_key ?", database.In(keys)), &found)
	if err != nil {
		return nil, fmt.Errorf("existing bank lines: %w", err)
	}
	out := make(map[string]bool, len(found))
	for _, k := range found {
		out[k] = true
	}
	return out, nil
}

// line returns, through db, the line with id.
func (s *Store) line(ctx context.Context, db bun.IDB, id uuid.UUID) (*BankLine, error) {
	l := new(BankLine)
	err := database.Select(ctx, db, db.NewSelect().Model(l).Where("id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("bank line: %w", err)
	}
	return l, nil
}

// settle writes l's decision through db when the line is still in one of
// the from statuses; false when another request decided it first.
func (s *Store) settle(ctx context.Context, db bun.IDB, l *BankLine, from ...string) (bool, error) {
	res, err := database.Exec(ctx, db, db.NewUpdate().Model(l).
		Column("status", "reasons", "contract_id", "property_id", "payment_id", "updated_at").
		Where("id = ?", l.ID).Where("status ?", database.In(from)))
	if err != nil {
		return false, fmt.Errorf("settle bank line: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("settle bank line: %w", err)
	}
	return n == 1, nil
}

// markReturned notes on the line whose payment was reversed the return
// line that reversed it.
func (s *Store) markReturned(ctx context.Context, db bun.IDB, id, by uuid.UUID, now time.Time) error {
	_, err := database.Exec(ctx, db, db.NewUpdate().Model((*BankLine)(nil)).
		Set("returned_by = ?", by).Set("updated_at = ?", now).Where("id = ?", id))
	if err != nil {
		return fmt.Errorf("mark bank line returned: %w", err)
	}
	return nil
}

// returned finds, through db, the posted credit line of the account that
// a return of amount from iban on day takes back: the one with the
// return's end-to-end reference when it quotes one the account has, else
// the latest one of the amount and IBAN not returned yet, booked by that
// day.
func (s *Store) returned(ctx context.Context, db bun.IDB, accountID uuid.UUID, amount money.Amount, iban, endToEnd string, day period.Date) (*BankLine, error) {
	base := func() *bun.SelectQuery {
		return db.NewSelect().Model((*BankLine)(nil)).Where("bank_account_id = ?", accountID).
			Where("status = ?", Posted).Where("amount_minor > 0").Where("payment_id IS NOT NULL").
			Where("returned_by IS NULL").Where("booking_date <= ?", day).OrderExpr("booking_date DESC, id DESC").Limit(1)
	}
	one := func(q *bun.SelectQuery) (*BankLine, error) {
		l := new(BankLine)
		err := database.Select(ctx, db, q.Model(l))
		if errors.Is(err, sql.ErrNoRows) {
			return nil, errNotFound
		}
		if err != nil {
			return nil, fmt.Errorf("returned bank line: %w", err)
		}
		return l, nil
	}
	if endToEnd != "" {
		l, err := one(base().Where("end_to_end_id = ?", endToEnd))
		if !errors.Is(err, errNotFound) {
			return l, err
		}
	}
	q := base().Where("amount_minor = ?", amount)
	if iban != "" {
		q = q.Where("counterparty_iban = ?", iban)
	}
	return one(q)
}

// accountLines is how many lines the account has, through db.
func (s *Store) accountLines(ctx context.Context, db bun.IDB, accountID uuid.UUID) (int, error) {
	n, err := database.Count(ctx, db, db.NewSelect().Model((*BankLine)(nil)).Where("bank_account_id = ?", accountID))
	if err != nil {
		return 0, fmt.Errorf("count bank lines: %w", err)
	}
	return n, nil
}

// LineFilter narrows the list.
type LineFilter struct {
	BankAccountID string
	Status        string
	From, To      string
}

// list returns a page of the workspace's lines, newest booking first.
func (s *Store) list(ctx context.Context, p *auth.Principal, f LineFilter, q listing.Query) ([]BankLine, listing.Result, error) {
	var list []BankLine
	sel := s.db.NewSelect().Model(&list)
	if f.BankAccountID != "" {
		sel = sel.Where("bank_account_id = ?", f.BankAccountID)
	}
	if f.Status != "" {
		sel = sel.Where("status = ?", f.Status)
	}
	if f.From != "" {
		sel = sel.Where("booking_date >= ?", f.From)
	}
	if f.To != "" {
		sel = sel.Where("booking_date <= ?", f.To)
	}
	res, err := listing.ScanWorkspace(ctx, sel, "workspace_id", p, q, listing.Desc("booking_date", "id"))
	if err != nil {
		return nil, listing.Result{}, fmt.Errorf("list bank lines: %w", err)
	}
	return list, res, nil
}

// payerContracts returns, through db, the contracts each of the IBANs
// has paid.
func (s *Store) payerContracts(ctx context.Context, db bun.IDB, workspaceID int64, ibans []string) (map[string][]uuid.UUID, error) {
	out := map[string][]uuid.UUID{}
	if len(ibans) == 0 {
		return out, nil
	}
	var rows []PayerIBAN
	err := database.Select(ctx, db, db.NewSelect().Model(&rows).
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("iban ?", database.In(ibans)).OrderExpr("iban, contract_id"))
	if err != nil {
		return nil, fmt.Errorf("payer ibans: %w", err)
	}
	for _, r := range rows {
		out[r.IBAN] = append(out[r.IBAN], r.ContractID)
	}
	return out, nil
}

// learn records, through db, that iban paid the contract.
func (s *Store) learn(ctx context.Context, db bun.IDB, row *PayerIBAN) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(row).On("CONFLICT DO NOTHING")); err != nil {
		return fmt.Errorf("learn payer iban: %w", err)
	}
	return nil
}

// learnMany records, through db, the IBANs that paid contracts.
func (s *Store) learnMany(ctx context.Context, db bun.IDB, rows []PayerIBAN) error {
	if len(rows) == 0 {
		return nil
	}
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING")); err != nil {
		return fmt.Errorf("learn payer ibans: %w", err)
	}
	return nil
}

// mappings returns the account's saved CSV mappings, oldest first.
func (s *Store) mappings(ctx context.Context, accountID uuid.UUID) ([]Mapping, error) {
	var list []Mapping
	if err := database.Select(ctx, s.db, s.db.NewSelect().Model(&list).Where("bank_account_id = ?", accountID).OrderExpr("id")); err != nil {
		return nil, fmt.Errorf("csv mappings: %w", err)
	}
	return list, nil
}

// mapping returns the account's mapping with id.
func (s *Store) mapping(ctx context.Context, accountID, id uuid.UUID) (*Mapping, error) {
	m := new(Mapping)
	err := database.Select(ctx, s.db, s.db.NewSelect().Model(m).Where("id = ?", id).Where("bank_account_id = ?", accountID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("csv mapping: %w", err)
	}
	return m, nil
}

func (s *Store) insertMapping(ctx context.Context, db bun.IDB, m *Mapping) error {
	if _, err := database.Exec(ctx, db, db.NewInsert().Model(m)); err != nil {
		return fmt.Errorf("insert csv mapping: %w", err)
	}
	return nil
}

func (s *Store) updateMapping(ctx context.Context, db bun.IDB, m *Mapping) error {
	if _, err := database.Exec(ctx, db, db.NewUpdate().Model(m).Column("name", "spec", "updated_at").Where("id = ?", m.ID)); err != nil {
		return fmt.Errorf("update csv mapping: %w", err)
	}
	return nil
}

func (s *Store) deleteMapping(ctx context.Context, db bun.IDB, id uuid.UUID) error {
	if _, err := database.Exec(ctx, db, db.NewDelete().Model((*Mapping)(nil)).Where("id = ?", id)); err != nil {
		return fmt.Errorf("delete csv mapping: %w", err)
	}
	return nil
}

// ToReview returns, through db, how many of the workspace's imported
// lines wait for a person: suggested (a match to confirm) and unmatched.
func ToReview(ctx context.Context, db bun.IDB, workspaceID int64) (suggested, unmatched int, err error) {
	var rows []struct {
		Status string `bun:"status"`
		N      int    `bun:"n"`
	}
	err = database.Query(ctx, db, db.NewSelect().TableExpr("bank_lines").ColumnExpr("status, COUNT(*) AS n").
		Where("workspace_id = ?", database.Param{V: workspaceID}).Where("status IN (?)", bun.In([]string{Suggested, Unmatched})).Group("status"), &rows)
	if err != nil {
		return 0, 0, fmt.Errorf("bank lines to review: %w", err)
	}
	for _, r := range rows {
		if r.Status == Suggested {
			suggested = r.N
		} else {
			unmatched = r.N
		}
	}
	return suggested, unmatched, nil
}
