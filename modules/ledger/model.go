package ledger

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Account is a row of ledger_accounts: one account of a workspace's chart.
type Account struct {
	bun.BaseModel `bun:"table:ledger_accounts,alias:a"`

	ID          uuid.UUID `bun:"id,pk"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	Code        string    `bun:"code,notnull"`
	Role        string    `bun:"role,notnull"`
	// BankAccountID is the workspace's bank account a sub-account of the
	// bank (1800-1, ...) holds; nil for the standard chart's accounts.
	BankAccountID *uuid.UUID `bun:"bank_account_id"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
}

// EntryRow is a row of ledger_entries with its lines.
type EntryRow struct {
	bun.BaseModel `bun:"table:ledger_entries,alias:e"`

	ID          uuid.UUID    `bun:"id,pk"`
	WorkspaceID int64        `bun:"workspace_id,notnull"`
	Date        period.Date  `bun:"entry_date,notnull"`
	Kind        string       `bun:"kind,notnull"`
	SourceTable string       `bun:"source_table,notnull"`
	SourceID    uuid.UUID    `bun:"source_id,notnull"`
	Memo        string       `bun:"memo,notnull"`
	Currency    string       `bun:"currency,notnull"`
	Total       money.Amount `bun:"total_minor,notnull"`
	CreatedAt   time.Time    `bun:"created_at,notnull"`

	Lines []Line `bun:"-"`
}

// Line is a row of ledger_lines: one side of one account in an entry,
// with the entry's workspace and date copied so that balances and
// movements read the lines alone.
type Line struct {
	bun.BaseModel `bun:"table:ledger_lines,alias:l"`

	ID          int64        `bun:"id,pk,autoincrement"`
	EntryID     uuid.UUID    `bun:"entry_id,notnull"`
	WorkspaceID int64        `bun:"workspace_id,notnull"`
	Date        period.Date  `bun:"entry_date,notnull"`
	AccountCode string       `bun:"account_code,notnull"`
	ContractID  *uuid.UUID   `bun:"contract_id"`
	PropertyID  *uuid.UUID   `bun:"property_id"`
	Currency    string       `bun:"currency,notnull"`
	Debit       money.Amount `bun:"debit_minor,notnull"`
	Credit      money.Amount `bun:"credit_minor,notnull"`
}

// Movement is a line of an account with what its entry says.
type Movement struct {
	bun.BaseModel `bun:"table:ledger_lines,alias:l"`

	ID         int64        `bun:"id,pk"`
	EntryID    uuid.UUID    `bun:"entry_id"`
	Date       period.Date  `bun:"entry_date"`
	ContractID *uuid.UUID   `bun:"contract_id"`
	PropertyID *uuid.UUID   `bun:"property_id"`
	Currency   string       `bun:"currency"`
	Debit      money.Amount `bun:"debit_minor"`
	Credit     money.Amount `bun:"credit_minor"`
	Kind       string       `bun:"kind,scanonly"`
	Memo       string       `bun:"memo,scanonly"`
}

// Balance is an account's sums in one currency.
type Balance struct {
	Code     string       `bun:"code"`
	Currency string       `bun:"currency"`
	Debit    money.Amount `bun:"debit"`
	Credit   money.Amount `bun:"credit"`
}

// net is what the entries of one source left on one account and
// dimension: debit minus credit.
type net struct {
	WorkspaceID int64      `bun:"workspace_id"`
	AccountCode string     `bun:"account_code"`
	ContractID  *uuid.UUID `bun:"contract_id"`
	PropertyID  *uuid.UUID `bun:"property_id"`
	Currency    string     `bun:"currency"`
	Net         int64      `bun:"net"`
}
