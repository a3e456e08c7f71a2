package bankaccounts

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Account is a row of bank_accounts: an account of a workspace that rent
// is paid to. Optional text fields are empty strings when unset.
type Account struct {
	bun.BaseModel `bun:"table:bank_accounts"`

	ID          uuid.UUID `bun:"id,pk"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	Holder      string    `bun:"holder,notnull"`
	// IBAN is normalised: upper case, no spaces (NormalizeIBAN).
	IBAN     string `bun:"iban,notnull"`
	BIC      string `bun:"bic,notnull"`
	BankName string `bun:"bank_name,notnull"`
	Label    string `bun:"label,notnull"`
	Currency string `bun:"currency,notnull"`
	// IsDefault marks the account printed for contracts that name none;
	// a workspace with accounts has exactly one.
	IsDefault bool      `bun:"is_default,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`
}

// IBANDisplay is the IBAN in groups of four, as printed.
func (a *Account) IBANDisplay() string { return GroupIBAN(a.IBAN) }
