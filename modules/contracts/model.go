package contracts

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The stored states of a contract. Ended and Ending are never stored: an
// active contract whose end_date has passed is shown as ended, and a
// terminated one whose termination date is still ahead as ending (the
// tenancy runs until that day).
const (
	Draft      = "draft"
	Active     = "active"
	Ending     = "ending"
	Terminated = "terminated"
	Ended      = "ended"
)

// Who ended a tenancy (terminated_by).
const (
	ByLandlord = "landlord"
	ByTenant   = "tenant"
	ByMutual   = "mutual"
)

// Statuses are every status a client can see or filter by.
var Statuses = []string{Draft, Active, Ending, Terminated, Ended}

// The agreement blocks the contract's rules use.
const (
	CodeRent          = "MONTHLY_RENT_AMOUNT"
	CodeStart         = "CONTRACT_START_DATE"
	CodeEnd           = "CONTRACT_END_DATE"
	CodePaymentDay    = "PAYMENT_DAY_OF_MONTH"
	CodeDeposit       = "DEPOSIT_AMOUNT"
	CodeDepositMonths = "DEPOSIT_MONTHS"
	CodePrepayment    = "UTILITY_PREPAYMENT_AMOUNT"
	// CodePrepaymentDE is Germany's prepayment of running costs, used when
	// the generic prepayment block is absent.
	CodePrepaymentDE = "DE_BETRIEBSKOSTEN_VORAUSZAHLUNG"
)

// Term is one condition of a contract: an agreement block's code and its
// value, normalised (money with 2 decimals, dates YYYY-MM-DD).
type Term struct {
	Code  string          `json:"code"`
	Value json.RawMessage `json:"value"`
}

// Contract is a row of contracts.
type Contract struct {
	bun.BaseModel `bun:"table:contracts"`

	ID          uuid.UUID `bun:"id,pk"`
	OwnerID     int64     `bun:"owner_id,notnull"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	PropertyID  uuid.UUID `bun:"property_id,notnull"`
	TenantID    uuid.UUID `bun:"tenant_id,notnull"`
	Number      string    `bun:"number,notnull"`
	Status      string    `bun:"status,notnull"`
	Locale      string    `bun:"locale,notnull"`
	// Terms is the JSON array of Term.
	Terms     string      `bun:"terms,notnull"`
	Currency  string      `bun:"currency,notnull"`
	StartDate period.Date `bun:"start_date,nullzero"`
	EndDate   period.Date `bun:"end_date,nullzero"`
	// RentMinor and DepositMinor are in cents, nil when the terms do not
	// set them (plain integers: bun writes a *money.Amount as JSON).
	RentMinor *int64 `bun:"rent_minor"`
	// RentFrom is the day the latest rent (RentMinor) starts, zero for
	// the contract's start; PriorRentMinor is the rent in force before it.
	RentFrom          period.Date `bun:"rent_from,nullzero"`
	PriorRentMinor    *int64      `bun:"prior_rent_minor"`
	DepositMinor      *int64      `bun:"deposit_minor"`
	DueDay            int         `bun:"due_day,notnull"`
	TerminatedOn      period.Date `bun:"terminated_on,nullzero"`
	TerminationReason string      `bun:"termination_reason,notnull"`
	// TerminatedAt is when the termination was recorded (zero for one
	// recorded before the column existed: TerminationRecorded).
	TerminatedAt time.Time `bun:"terminated_at,nullzero"`
	// TerminatedBy is who gave notice (TerminatedBy... values, "" when
	// not said); NoticeReceivedOn the day the tenant's notice arrived.
	TerminatedBy     string      `bun:"terminated_by,notnull"`
	NoticeReceivedOn period.Date `bun:"notice_received_on,nullzero"`
	// AllocationOrder and LateFeeBase are the contract's money settings
	// (settings.go).
	AllocationOrder string `bun:"allocation_order,notnull"`
	LateFeeBase     string `bun:"late_fee_base,notnull"`
	// BankAccountID is the account the rent is paid to
	// (modules/bankaccounts); nil: the workspace's default.
	BankAccountID *uuid.UUID `bun:"bank_account_id"`
	// DepositInterestE4 is the yearly rate the deposit earns (an
	// InterestRate; a plain integer, as bun writes a type with
	// MarshalJSON as JSON), nil when none is configured (settings.go).
	DepositInterestE4 *int64 `bun:"deposit_interest_rate_e4"`
	// The lease as printed at activation (signed.go): a document of the
	// property and the SHA-256 of its bytes; nil until stored.
	SignedDocumentID *uuid.UUID `bun:"signed_document_id"`
	SignedSHA256     string     `bun:"signed_sha256,nullzero"`
	SignedAt         time.Time  `bun:"signed_at,nullzero"`
	CreatedAt        time.Time  `bun:"created_at,notnull"`
	UpdatedAt        time.Time  `bun:"updated_at,notnull"`
}

// StatusOn is the status a client sees on the day today.
func (c *Contract) StatusOn(today period.Date) string {
	if c.Status == Active && !c.EndDate.IsZero() && c.EndDate.Before(today) {
		return Ended
	}
	if c.Status == Terminated && c.TerminatedOn.After(today) {
		return Ending
	}
	return c.Status
}

// TermList decodes the stored terms.
func (c *Contract) TermList() []Term {
	var ts []Term
	if err := json.Unmarshal([]byte(c.Terms), &ts); err != nil || ts == nil {
		return []Term{}
	}
	return ts
}

// Rent is the monthly rent, nil when the terms do not set it.
func (c *Contract) Rent() *money.Amount { return amountOf(c.RentMinor) }

// RentOn is the rent in force on day, and the next one with its first day
// when an indexation is scheduled after day (nil otherwise).
func (c *Contract) RentOn(day period.Date) (rent *money.Amount, next *money.Amount, from period.Date) {
	if !c.RentFrom.IsZero() && c.RentFrom.After(day) && c.PriorRentMinor != nil {
		return amountOf(c.PriorRentMinor), amountOf(c.RentMinor), c.RentFrom
	}
	return c.Rent(), nil, period.Date{}
}

// Deposit is the deposit, nil when the terms do not set it.
func (c *Contract) Deposit() *money.Amount { return amountOf(c.DepositMinor) }

func amountOf(minor *int64) *money.Amount {
	if minor == nil {
		return nil
	}
	a := money.Amount(*minor)
	return &a
}

func minorOf(a *money.Amount) *int64 {
	if a == nil {
		return nil
	}
	n := int64(*a)
	return &n
}

// TerminationRecorded is when the termination of c was recorded: the date
// of its confirmation letter. A contract terminated before that was kept
// has its last change instead.
func (c *Contract) TerminationRecorded() time.Time {
	if !c.TerminatedAt.IsZero() {
		return c.TerminatedAt
	}
	return c.UpdatedAt
}

// DepositInterest is the yearly rate the deposit earns, nil when none is
// configured.
func (c *Contract) DepositInterest() *InterestRate {
	if c.DepositInterestE4 == nil {
		return nil
	}
	r := InterestRate(*c.DepositInterestE4)
	return &r
}
