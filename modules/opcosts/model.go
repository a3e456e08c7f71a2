package opcosts

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The allocation keys. Consumption (meters) and heating per HeizKV are a
// later slice: they are named so a request for them is told so.
const (
	KeyArea    = "area"
	KeyPersons = "persons"
	KeyUnits   = "units"
	KeyShare   = "share"
	KeyDirect  = "direct"
)

// Keys are the keys this slice computes.
var Keys = []string{KeyArea, KeyPersons, KeyUnits, KeyShare, KeyDirect}

// laterKeys are keys of the later slice, refused with their own message.
var laterKeys = []string{"consumption", "heizkv"}

// The states of a statement.
const (
	Draft  = "draft"
	Posted = "posted"
)

// KeyRow is the key of one operating-cost category of a building.
type KeyRow struct {
	bun.BaseModel `bun:"table:opcost_keys"`

	BuildingID uuid.UUID `bun:"building_id,pk"`
	Category   string    `bun:"category,pk"`
	Key        string    `bun:"allocation_key,notnull"`
	UpdatedAt  time.Time `bun:"updated_at,notnull"`
}

// Statement is a row of opcost_statements.
type Statement struct {
	bun.BaseModel `bun:"table:opcost_statements"`

	ID             uuid.UUID   `bun:"id,pk"`
	WorkspaceID    int64       `bun:"workspace_id,notnull"`
	OwnerID        int64       `bun:"owner_id,notnull"`
	BuildingID     uuid.UUID   `bun:"building_id,notnull"`
	From           period.Date `bun:"period_from,notnull"`
	To             period.Date `bun:"period_to,notnull"`
	Status         string      `bun:"status,notnull"`
	Currency       string      `bun:"currency,notnull"`
	Computation    string      `bun:"computation,notnull"`
	LateNotAtFault bool        `bun:"late_not_at_fault,notnull"`
	CreatedAt      time.Time   `bun:"created_at,notnull"`
	PostedAt       *time.Time  `bun:"posted_at"`
}

// Computation is what a statement computed: per category the building's
// total and who bears it, per contract its lines and result.
type Computation struct {
	PeriodDays int            `json:"period_days"`
	Categories []CategoryLine `json:"categories"`
	Contracts  []ContractLine `json:"contracts"`
}

// CategoryLine is one operating-cost category of the building: its total,
// its key, what the tenants bear and what stays with the landlord
// (vacancy, and the cents of rounding).
type CategoryLine struct {
	Category string       `json:"category"`
	Key      string       `json:"key"`
	Total    money.Amount `json:"total"`
	Tenants  money.Amount `json:"tenants"`
	Landlord money.Amount `json:"landlord"`
}

// ContractLine is one contract's part of the statement.
type ContractLine struct {
	ContractID     uuid.UUID    `json:"contract_id"`
	ContractNumber string       `json:"contract_number"`
	PropertyID     uuid.UUID    `json:"property_id"`
	Unit           string       `json:"unit"`
	Locale         string       `json:"locale"`
	From           period.Date  `json:"from"`
	To             period.Date  `json:"to"`
	Days           int          `json:"days"`
	Costs          []CostLine   `json:"costs"`
	CostTotal      money.Amount `json:"cost_total"`
	Prepaid        money.Amount `json:"prepayments_paid"`
	PrepaidCharged money.Amount `json:"prepayments_charged"`
	// Result is the costs less the prepayments paid: above 0 a balance
	// the tenant owes, below 0 a credit.
	Result         money.Amount `json:"result"`
	ChargeID       *uuid.UUID   `json:"charge_id"`
	CompensationID *uuid.UUID   `json:"compensation_id"`
	// Excluded: a balance due not posted because the deadline had passed.
	Excluded bool `json:"excluded"`
}

// CostLine is one category of a contract with its arithmetic: the
// building's total × unit value / total value × days / period days (the
// persons key counts person-days, so its values already hold the days).
type CostLine struct {
	Category   string       `json:"category"`
	Key        string       `json:"key"`
	Total      money.Amount `json:"building_total"`
	UnitValue  string       `json:"unit_value"`
	TotalValue string       `json:"total_value"`
	Days       int          `json:"days"`
	PeriodDays int          `json:"period_days"`
	Amount     money.Amount `json:"amount"`
}
