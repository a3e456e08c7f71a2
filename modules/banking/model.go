package banking

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The statuses of a bank line.
const (
	Posted    = "posted"
	Suggested = "suggested"
	Unmatched = "unmatched"
	Ignored   = "ignored"
	Debit     = "debit"
)

// Statuses are every status a client can filter by.
var Statuses = []string{Posted, Suggested, Unmatched, Ignored, Debit}

// BankLine is a row of bank_lines.
type BankLine struct {
	bun.BaseModel `bun:"table:bank_lines"`

	ID               uuid.UUID    `bun:"id,pk"`
	WorkspaceID      int64        `bun:"workspace_id,notnull"`
	BankAccountID    uuid.UUID    `bun:"bank_account_id,notnull"`
	EntryKey         string       `bun:"entry_key,notnull"`
	Format           string       `bun:"format,notnull"`
	BookingDate      period.Date  `bun:"booking_date,notnull"`
	ValueDate        period.Date  `bun:"value_date,nullzero"`
	Amount           money.Amount `bun:"amount_minor,notnull"`
	Currency         string       `bun:"currency,notnull"`
	CounterpartyName string       `bun:"counterparty_name,notnull"`
	CounterpartyIBAN string       `bun:"counterparty_iban,notnull"`
	Remittance       string       `bun:"remittance,notnull"`
	BankReference    string       `bun:"bank_reference,notnull"`
	EndToEndID       string       `bun:"end_to_end_id,notnull"`
	IsReturn         bool         `bun:"is_return,notnull"`
	ReturnCode       string       `bun:"return_code,notnull"`
	Status           string       `bun:"status,notnull"`
	Reasons          []string     `bun:"reasons,type:json,notnull"`
	ContractID       *uuid.UUID   `bun:"contract_id"`
	PropertyID       *uuid.UUID   `bun:"property_id"`
	PaymentID        *uuid.UUID   `bun:"payment_id"`
	ReturnedBy       *uuid.UUID   `bun:"returned_by"`
	// Splits are the payments of a line split over several contracts of
	// one payer (nil when the line paid one contract or none).
	Splits []LineSplit `bun:"splits,type:json,nullzero"`
	// BillProposal is the bill a debit line may be, nil for other lines.
	BillProposal *BillProposal `bun:"bill_proposal,type:json,nullzero"`
	CreatedAt    time.Time     `bun:"created_at,notnull"`
	UpdatedAt    time.Time     `bun:"updated_at,notnull"`
}

// LineSplit is the share of a split line that one contract received, and
// the payment posted for it.
type LineSplit struct {
	ContractID uuid.UUID    `json:"contract_id"`
	PaymentID  uuid.UUID    `json:"payment_id"`
	Amount     money.Amount `json:"amount"`
}

// BillProposal is the bill a debit line may be: what a client sends to
// POST /properties/{id}/bills with the property and the category it
// picks.
type BillProposal struct {
	SupplierID *uuid.UUID   `json:"supplier_id"`
	BillDate   period.Date  `json:"bill_date"`
	PaidOn     period.Date  `json:"paid_on"`
	Amount     money.Amount `json:"amount"`
	Note       string       `json:"note"`
}

// PayerIBAN is a row of bank_payer_ibans: an IBAN that paid a contract.
type PayerIBAN struct {
	bun.BaseModel `bun:"table:bank_payer_ibans"`

	WorkspaceID int64     `bun:"workspace_id,pk"`
	IBAN        string    `bun:"iban,pk"`
	ContractID  uuid.UUID `bun:"contract_id,pk"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
}

// Mapping is a row of bank_csv_mappings.
type Mapping struct {
	bun.BaseModel `bun:"table:bank_csv_mappings"`

	ID            uuid.UUID  `bun:"id,pk"`
	WorkspaceID   int64      `bun:"workspace_id,notnull"`
	BankAccountID uuid.UUID  `bun:"bank_account_id,notnull"`
	Name          string     `bun:"name,notnull"`
	Spec          CSVMapping `bun:"spec,type:json,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	UpdatedAt     time.Time  `bun:"updated_at,notnull"`
}
