package opcosts

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/counters"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The allocation keys. consumption spreads by the units' meters;
// heizkv spreads heating per HeizKV: a share of 50 to 70 % by the meters,
// the rest by living area. co2 is no category's key: it names the
// landlord's part of the CO2 cost (CO2KostAufG) on a statement.
const (
	KeyArea        = "area"
	KeyPersons     = "persons"
	KeyUnits       = "units"
	KeyShare       = "share"
	KeyDirect      = "direct"
	KeyConsumption = "consumption"
	KeyHeizKV      = "heizkv"
	KeyCO2         = "co2"
)

// Keys are the keys a category may be spread by.
var Keys = []string{KeyArea, KeyPersons, KeyUnits, KeyShare, KeyDirect, KeyConsumption, KeyHeizKV}

// The parts of a category a cost line spreads: all of it, or under
// HeizKV the basic costs (by area) and the consumption costs.
const (
	PartAll         = "all"
	PartBase        = "base"
	PartConsumption = "consumption"
)

// CategoryHeating is the bills' category of heating (and hot water
// when the bills do not state it apart), CategoryHotWater that of hot
// water billed apart (§ 8 HeizKV); CategoryCO2 names the landlord's part
// of their CO2 cost.
const (
	CategoryHeating  = "heating"
	CategoryHotWater = "hot_water"
	CategoryCO2      = "co2"
)

// warm tells whether the category is one the HeizKV spreads and the
// CO2KostAufG splits: heating and hot water.
func warm(category string) bool { return category == CategoryHeating || category == CategoryHotWater }

// meterKinds are the counter kinds (modules/counters) whose readings a
// category may be spread by; other categories take no consumption key.
var meterKinds = map[string][]string{
	CategoryHeating:  {counters.KindHeating},
	CategoryHotWater: {counters.KindWaterHot},
	"water":          {counters.KindWaterCold, counters.KindWaterHot},
}

// The consumption share of heating per HeizKV (§ 7 Abs. 1, § 8 Abs. 1):
// 50 to 70 %.
const (
	MinShare = 50
	MaxShare = 70
)

// The states of a statement.
const (
	Draft  = "draft"
	Posted = "posted"
	// Superseded is a posted statement a posted correction replaced.
	Superseded = "superseded"
)

// KeyRow is the key of one operating-cost category of a building.
type KeyRow struct {
	bun.BaseModel `bun:"table:opcost_keys"`

	BuildingID uuid.UUID `bun:"building_id,pk"`
	Category   string    `bun:"category,pk"`
	Key        string    `bun:"allocation_key,notnull"`
	// Share is the consumption share (%) of a category spread per HeizKV.
	Share     *int      `bun:"consumption_share"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`
}

// Statement is a row of opcost_statements.
type Statement struct {
	bun.BaseModel `bun:"table:opcost_statements"`

	ID          uuid.UUID   `bun:"id,pk"`
	WorkspaceID int64       `bun:"workspace_id,notnull"`
	OwnerID     int64       `bun:"owner_id,notnull"`
	BuildingID  uuid.UUID   `bun:"building_id,notnull"`
	From        period.Date `bun:"period_from,notnull"`
	To          period.Date `bun:"period_to,notnull"`
	Status      string      `bun:"status,notnull"`
	// CorrectsID is the posted statement this one corrects.
	CorrectsID     *uuid.UUID `bun:"corrects_id"`
	Currency       string     `bun:"currency,notnull"`
	Computation    string     `bun:"computation,notnull"`
	LateNotAtFault bool       `bun:"late_not_at_fault,notnull"`
	CreatedAt      time.Time  `bun:"created_at,notnull"`
	PostedAt       *time.Time `bun:"posted_at"`
}

// Computation is what a statement computed: per category the building's
// total and who bears it, per contract its lines and result.
type Computation struct {
	PeriodDays int            `json:"period_days"`
	Categories []CategoryLine `json:"categories"`
	Contracts  []ContractLine `json:"contracts"`
	CO2        *CO2Split      `json:"co2"`
	// Estimates are the units whose heating or hot-water consumption
	// could not be read and was estimated (§ 9a Abs. 1 HeizKV), or whose
	// share of the area made the category go by area alone (Abs. 2).
	Estimates []Estimate `json:"estimates"`
	// Input is what the statement was asked for, so a correction can
	// start from it.
	Input *CO2Input `json:"co2_input,omitempty"`
	// EstimateMissing is whether it was asked to estimate missing
	// readings, so a correction does the same.
	EstimateMissing bool `json:"estimate_missing,omitempty"`
}

// The ways § 9a HeizKV replaces a consumption that could not be read.
const (
	// EstimateAverage: the building's average consumption per m² of the
	// units that were read, times the unit's living area (Abs. 1).
	EstimateAverage = "building_average"
	// EstimateAreaOnly: the units not read hold more than 25 % of the
	// living area, so the whole category goes by area (Abs. 2).
	EstimateAreaOnly = "area_only"
)

// Estimate is a unit whose consumption of a category was not read.
type Estimate struct {
	Category   string    `json:"category"`
	PropertyID uuid.UUID `json:"property_id"`
	Unit       string    `json:"unit"`
	Method     string    `json:"method"`
	// Consumption is the estimate in the meters' unit (3 decimals), with
	// Measure; nil under EstimateAreaOnly.
	Consumption *string `json:"consumption"`
	Measure     *string `json:"measure"`
	// AreaPercent is the share of the building's living area of all the
	// units of the category not read (2 decimals).
	AreaPercent string `json:"area_percent"`
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
	// AreaOnly: a HeizKV category spread by area alone, § 9a Abs. 2
	// HeizKV (too much of the area could not be read).
	AreaOnly bool `json:"area_only,omitempty"`
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
	// PreviouslyBooked is what the statement this one corrects booked for
	// the contract (a charge above 0, a credit below); posting books only
	// Result − PreviouslyBooked.
	PreviouslyBooked money.Amount `json:"previously_booked"`
	// PrepaymentMonthly is the monthly prepayment the contract's terms
	// set; ProposedPrepayment the new one proposed, ProposalAppliedFrom
	// the day it applies from once the landlord confirmed it.
	PrepaymentMonthly   money.Amount `json:"prepayment_monthly"`
	ProposedPrepayment  money.Amount `json:"proposed_prepayment"`
	ProposalAppliedFrom *period.Date `json:"proposal_applied_from"`
	// MessageID is the message that sent the letter to the tenant.
	MessageID *uuid.UUID `json:"message_id"`
}

// Difference is what posting books for the contract.
func (l *ContractLine) Difference() money.Amount { return l.Result - l.PreviouslyBooked }

// Booked is what the statement booked for the contract in all: what the
// corrected statement booked and, when posted, the difference.
func (l *ContractLine) Booked() money.Amount {
	if l.ChargeID != nil || l.CompensationID != nil {
		return l.Result
	}
	return l.PreviouslyBooked
}

// CO2Input is the heating's CO2 cost a statement splits (CO2KostAufG): the
// CO2 cost the fuel supplier's bills state, and the building's emissions
// in kg CO2 in the period.
type CO2Input struct {
	Cost        money.Amount `json:"cost"`
	EmissionsKg money.Amount `json:"emissions_kg"`
}

// CO2Split is how the CO2 cost was split: the building's emissions per
// m² of living area and year, its tier of the Anlage zu § 5 CO2KostAufG,
// the percentages and what the landlord bears in all.
type CO2Split struct {
	Cost            money.Amount `json:"cost"`
	EmissionsKg     string       `json:"emissions_kg"`
	LivingArea      string       `json:"living_area"`
	KgPerM2         string       `json:"kg_per_m2"`
	Tier            int          `json:"tier"`
	LandlordPercent int          `json:"landlord_percent"`
	TenantPercent   int          `json:"tenant_percent"`
	Landlord        money.Amount `json:"landlord"`
}

// CostLine is one category of a contract with its arithmetic: the
// building's total × unit value / total value × days / period days (the
// persons key counts person-days, so its values already hold the days).
type CostLine struct {
	Category string `json:"category"`
	Key      string `json:"key"`
	// Part is all of the category, or under HeizKV its basic costs (by
	// area) or its consumption costs, Percent what the part is of it.
	Part    string `json:"part"`
	Percent int    `json:"percent"`
	// Measure is the meters' unit of a consumption line.
	Measure    *string      `json:"measure"`
	Total      money.Amount `json:"building_total"`
	UnitValue  string       `json:"unit_value"`
	TotalValue string       `json:"total_value"`
	Days       int          `json:"days"`
	PeriodDays int          `json:"period_days"`
	Amount     money.Amount `json:"amount"`
	// NonResidential marks the CO2 line of a unit let for another use
	// than dwelling: split 50/50 (§ 8 CO2KostAufG), not by the tier.
	NonResidential bool `json:"non_residential,omitempty"`
}
