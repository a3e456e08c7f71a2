package ledger

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/bankaccounts"

	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/journal"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Service books the money modules' entries (it is the journal's Poster)
// and answers the ledger's reads.
type Service struct {
	store *Store
	clock clock.Clock
	dicts *translations.Dictionaries
	// banks names the sub-accounts of the bank after their bank accounts.
	banks *bankaccounts.Service
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	Store *Store
	Clock clock.Clock
	Dicts *translations.Dictionaries
	Banks *bankaccounts.Service `optional:"true"`
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{store: p.Store, clock: p.Clock, dicts: p.Dicts, banks: p.Banks}
}

// bankListener makes each new bank account's sub-account of the bank. It
// is not the Service: the Service reads bank accounts' names, and
// bankaccounts.Service needs its listeners.
type bankListener struct {
	store *Store
	clock clock.Clock
}

func newBankListener(store *Store, clk clock.Clock) *bankListener {
	return &bankListener{store: store, clock: clk}
}

var _ bankaccounts.Listener = (*bankListener)(nil)

// AccountCreated makes, in the bank account's transaction, its
// sub-account of the bank.
func (l *bankListener) AccountCreated(ctx context.Context, tx bun.Tx, a *bankaccounts.Account) error {
	return l.store.AddBankAccount(ctx, tx, a.WorkspaceID, a.ID, l.clock.Now().UTC().Truncate(time.Microsecond))
}

// asPoster hands the service to the journal as its poster.
func asPoster(s *Service) *Service { return s }

var _ journal.Poster = (*Service)(nil)

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// Post writes entries through tx, the event's transaction. It is the one
// function that writes the journal: it refuses an entry that does not
// balance (and the database's trigger refuses it again), resolves each
// entry's workspace from its property when the caller gave none, and maps
// the roles to the chart's numbers.
func (s *Service) Post(ctx context.Context, tx bun.IDB, entries ...journal.Entry) error {
	rows := make([]EntryRow, 0, len(entries))
	now := s.now()
	for i := range entries {
		e := &entries[i]
		if err := e.Check(); err != nil {
			return err
		}
		ws := e.WorkspaceID
		if ws == 0 {
			var err error
			if ws, err = s.store.WorkspaceOf(ctx, tx, e.PropertyID); err != nil {
				return err
			}
		}
		id, err := uuid.NewV7()
		if err != nil {
			return fmt.Errorf("entry id: %w", err)
		}
		row := EntryRow{ID: id, WorkspaceID: ws, Date: e.Date, Kind: e.Kind, SourceTable: e.SourceTable, SourceID: e.SourceID,
			Memo: memo(e.Memo), Currency: e.Currency, CreatedAt: now, Lines: make([]Line, len(e.Lines))}
		for j, l := range e.Lines {
			code, ok := codeOf[l.Account]
			if !ok {
				return fmt.Errorf("journal: no account for role %q", l.Account)
			}
			if l.Account == journal.Bank && l.BankAccountID != nil {
				// A bank account without a sub-account (made while the
				// ledger was off) books to the bank.
				sub, found, err := s.store.BankCode(ctx, tx, ws, *l.BankAccountID)
				if err != nil {
					return err
				}
				if found {
					code = sub
				}
			}
			row.Lines[j] = Line{EntryID: id, WorkspaceID: ws, Date: e.Date, AccountCode: code, ContractID: l.ContractID,
				PropertyID: l.PropertyID, Currency: e.Currency, Debit: l.Debit, Credit: l.Credit}
			row.Total += l.Debit
		}
		rows = append(rows, row)
	}
	return s.store.Write(ctx, tx, rows)
}

// memo fits a memo in its column.
func memo(m string) string {
	if r := []rune(m); len(r) > 500 {
		return string(r[:499]) + "…"
	}
	return m
}

// roleOfCode maps an account number back to its role, a sub-account of
// the bank (1800-n) to the bank.
func roleOfCode(code string) journal.Account {
	if r, ok := roleOf[code]; ok {
		return r
	}
	if strings.HasPrefix(code, codeOf[journal.Bank]+"-") {
		return journal.Bank
	}
	return ""
}

// roleOf maps an account number back to its role.
var roleOf = func() map[string]journal.Account {
	m := make(map[string]journal.Account, len(chart))
	for _, a := range chart {
		m[a.Code] = journal.Account(a.Role)
	}
	return m
}()

// Reverse books, through tx, one entry per currency that takes back what
// the source's entries left on each account: nothing when they left
// nothing (a source never booked, or reversed already).
func (s *Service) Reverse(ctx context.Context, tx bun.IDB, r journal.Reversal) error {
	nets, err := s.store.SourceNet(ctx, tx, r.SourceTable, r.SourceID)
	if err != nil || len(nets) == 0 {
		return err
	}
	var entries []journal.Entry
	at := map[string]int{}
	for _, n := range nets {
		i, ok := at[n.Currency]
		if !ok {
			entries = append(entries, journal.Entry{WorkspaceID: n.WorkspaceID, PropertyID: r.PropertyID, Date: r.Date, Kind: r.Kind,
				SourceTable: r.SourceTable, SourceID: r.SourceID, Memo: r.Memo, Currency: n.Currency})
			i = len(entries) - 1
			at[n.Currency] = i
		}
		l := journal.Line{Account: roleOfCode(n.AccountCode), ContractID: n.ContractID, PropertyID: n.PropertyID}
		if l.Account == journal.Bank && n.AccountCode != codeOf[journal.Bank] {
			id, err := s.store.BankAccountOf(ctx, tx, n.WorkspaceID, n.AccountCode)
			if err != nil {
				return err
			}
			l.BankAccountID = &id
		}
		if n.Net > 0 {
			l.Credit = money.Amount(n.Net)
		} else {
			l.Debit = money.Amount(-n.Net)
		}
		entries[i].Lines = append(entries[i].Lines, l)
	}
	return s.Post(ctx, tx, entries...)
}

// AccountView is an account of the chart with its name in the reader's
// language and its sums.
type AccountView struct {
	Account
	Name     string
	Type     string
	Balances []Balance
}

// Accounts returns the workspace's chart (made now when it is not yet)
// with each account's sums per currency as of asOf (all when zero).
func (s *Service) Accounts(ctx context.Context, p *auth.Principal, locale string, asOf period.Date) ([]AccountView, error) {
	if err := s.store.EnsureChart(ctx, p.WorkspaceID, s.now()); err != nil {
		return nil, err
	}
	accounts, err := s.store.Accounts(ctx, p.WorkspaceID)
	if err != nil {
		return nil, err
	}
	sums, err := s.store.Balances(ctx, p.WorkspaceID, asOf)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(accounts))
	for i, a := range accounts {
		keys[i] = nameKey(a.Role)
	}
	names, _ := s.dicts.Select(locale, keys)
	out := make([]AccountView, len(accounts))
	byCode := make(map[string]int, len(accounts))
	for i, a := range accounts {
		out[i] = AccountView{Account: a, Name: names[nameKey(a.Role)], Type: typeOf[codeOf[journal.Account(a.Role)]], Balances: []Balance{}}
		if a.BankAccountID != nil {
			out[i].Name = s.bankName(ctx, p.WorkspaceID, *a.BankAccountID, out[i].Name)
		}
		byCode[a.Code] = i
	}
	for _, b := range sums {
		if i, ok := byCode[b.Code]; ok {
			out[i].Balances = append(out[i].Balances, b)
		}
	}
	return out, nil
}

// bankName is a sub-account's name: the bank's, then the bank account's
// label (else its bank, else its holder) and IBAN; the bank's alone when
// the account is gone.
func (s *Service) bankName(ctx context.Context, workspaceID int64, id uuid.UUID, bank string) string {
	if s.banks == nil {
		return bank
	}
	a, err := s.banks.InWorkspace(ctx, s.store.db, workspaceID, id)
	if err != nil || a == nil {
		return bank
	}
	name := a.Label
	if name == "" {
		name = a.BankName
	}
	if name == "" {
		name = a.Holder
	}
	return bank + " – " + name + " (" + a.IBANDisplay() + ")"
}

func errNoAccount() error { return fault.NotFound("Account not found.") }

// Account returns the workspace's account with the raw id: 404 when the id
// is not a UUID or not an account of the caller's workspace.
func (s *Service) Account(ctx context.Context, p *auth.Principal, locale, rawID string) (*AccountView, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNoAccount()
	}
	list, err := s.Accounts(ctx, p, locale, period.Date{})
	if err != nil {
		return nil, err
	}
	for i := range list {
		if list[i].ID == id {
			return &list[i], nil
		}
	}
	return nil, errNoAccount()
}

// Movements returns a page of an account's lines.
func (s *Service) Movements(ctx context.Context, p *auth.Principal, a *AccountView, q listing.Query) ([]Movement, listing.Result, error) {
	return s.store.Movements(ctx, p.WorkspaceID, a.Code, q)
}

// Journal returns a page of the workspace's entries with their lines.
func (s *Service) Journal(ctx context.Context, p *auth.Principal, q listing.Query) ([]EntryRow, listing.Result, error) {
	from, _ := period.ParseDate(q.Get("from"))
	to, _ := period.ParseDate(q.Get("to"))
	if !from.IsZero() && !to.IsZero() && to.Before(from) {
		return nil, listing.Result{}, fault.Validation("to: must not be before from")
	}
	return s.store.Journal(ctx, p.WorkspaceID, q)
}

// TrialRow is one account of the trial balance in one currency.
type TrialRow struct {
	Account  *AccountView
	Currency string
	Debit    money.Amount
	Credit   money.Amount
}

// Total is the sums of a trial balance in one currency; its balance is 0
// when the books balance.
type Total struct {
	Currency string
	Debit    money.Amount
	Credit   money.Amount
}

// TrialBalance returns every account's sums of entries dated on or before
// asOf (an account without any, once, with zeros) and the totals per
// currency.
func (s *Service) TrialBalance(ctx context.Context, p *auth.Principal, locale string, asOf period.Date) ([]TrialRow, []Total, error) {
	accounts, err := s.Accounts(ctx, p, locale, asOf)
	if err != nil {
		return nil, nil, err
	}
	var rows []TrialRow
	var totals []Total
	at := map[string]int{}
	for i := range accounts {
		a := &accounts[i]
		if len(a.Balances) == 0 {
			rows = append(rows, TrialRow{Account: a})
			continue
		}
		for _, b := range a.Balances {
			rows = append(rows, TrialRow{Account: a, Currency: b.Currency, Debit: b.Debit, Credit: b.Credit})
			j, ok := at[b.Currency]
			if !ok {
				totals = append(totals, Total{Currency: b.Currency})
				j = len(totals) - 1
				at[b.Currency] = j
			}
			totals[j].Debit += b.Debit
			totals[j].Credit += b.Credit
		}
	}
	return rows, totals, nil
}

// Today is the clock's day.
func (s *Service) Today() period.Date { return period.DateOf(s.clock.Now()) }

// Words returns the catalogue's texts of keys in locale.
func (s *Service) Words(locale string, keys []string) map[string]string {
	t, _ := s.dicts.Select(locale, keys)
	return t
}

// JournalRows returns every line of the journal under q's filters, each
// with its account's name in locale.
func (s *Service) JournalRows(ctx context.Context, p *auth.Principal, locale string, q listing.Query) ([]ExportRow, error) {
	rows, err := s.store.JournalRows(ctx, p.WorkspaceID, q)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(chart))
	for i, a := range chart {
		keys[i] = nameKey(a.Role)
	}
	names := s.Words(locale, keys)
	for i := range rows {
		rows[i].AccountName = names[nameKey(string(roleOfCode(rows[i].AccountCode)))]
	}
	return rows, nil
}

// Sums is the ledger's journal.Reader: the property's lines from from to
// to by account role, source table and currency, for reports (the owner
// statement) that read the books without knowing the chart.
func (s *Service) Sums(ctx context.Context, propertyID uuid.UUID, from, to period.Date) ([]journal.Sum, error) {
	rows, err := s.store.PropertySums(ctx, propertyID, from, to)
	if err != nil {
		return nil, err
	}
	// The sub-accounts of the bank are the bank to a reader of roles.
	out := make([]journal.Sum, 0, len(rows))
	at := map[journal.Sum]int{}
	for _, r := range rows {
		k := journal.Sum{Account: roleOfCode(r.Code), SourceTable: r.SourceTable, Currency: r.Currency}
		i, ok := at[k]
		if !ok {
			out = append(out, k)
			i = len(out) - 1
			at[k] = i
		}
		out[i].Debit += money.Amount(r.Debit)
		out[i].Credit += money.Amount(r.Credit)
	}
	return out, nil
}

// PropertySum is what a property's lines of one account, source table
// and currency came to.
type PropertySum struct {
	PropertyID uuid.UUID
	journal.Sum
}

// WorkspaceSums adds up the workspace's lines of the accounts dated from
// to to, both inclusive, per property (over one when propertyID is set):
// the tax year reads the compensations and deposit deductions of every
// property in one statement.
func (s *Service) WorkspaceSums(ctx context.Context, workspaceID int64, propertyID *uuid.UUID, accounts []journal.Account,
	from, to period.Date) ([]PropertySum, error) {
	codes := make([]string, 0, len(accounts))
	for _, a := range accounts {
		codes = append(codes, codeOf[a])
	}
	rows, err := s.store.WorkspaceSums(ctx, workspaceID, propertyID, codes, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]PropertySum, len(rows))
	for i, r := range rows {
		out[i] = PropertySum{PropertyID: r.PropertyID, Sum: journal.Sum{Account: roleOfCode(r.Code), SourceTable: r.SourceTable,
			Currency: r.Currency, Debit: money.Amount(r.Debit), Credit: money.Amount(r.Credit)}}
	}
	return out, nil
}

// Compact moves committed line deltas into the daily totals the
// balances read, one batch, and reports how many it moved (the app does
// it every modules.ledger.compact).
func (s *Service) Compact(ctx context.Context) (int, error) { return s.store.Compact(ctx) }
