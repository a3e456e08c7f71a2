package counters

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/period"
)

// Counter is a row of counters: one meter of a property.
type Counter struct {
	bun.BaseModel `bun:"table:counters"`

	ID         uuid.UUID  `bun:"id,pk"`
	PropertyID uuid.UUID  `bun:"property_id,notnull"`
	ContractID *uuid.UUID `bun:"contract_id"`
	Kind       string     `bun:"kind,notnull"`
	Unit       string     `bun:"unit,notnull"`
	Serial     string     `bun:"serial,notnull"`
	Name       string     `bun:"name,notnull"`
	// Tariff is nil when the counter bills nothing.
	Tariff    *Tariff   `bun:"tariff_micro"`
	IsActive  bool      `bun:"is_active,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull"`
	UpdatedAt time.Time `bun:"updated_at,notnull"`
}

// Reading is a row of counter_readings.
type Reading struct {
	bun.BaseModel `bun:"table:counter_readings"`

	ID        uuid.UUID   `bun:"id,pk"`
	CounterID uuid.UUID   `bun:"counter_id,notnull"`
	ReadOn    period.Date `bun:"read_on,notnull"`
	Value     Quantity    `bun:"value_milli,notnull"`
	// Consumption is nil for a counter's first reading.
	Consumption *Quantity  `bun:"consumption_milli"`
	ChargeID    *uuid.UUID `bun:"charge_id"`
	CreatedBy   int64      `bun:"created_by,notnull"`
	CreatedAt   time.Time  `bun:"created_at,notnull"`
	// EnteredBy is ByLandlord or ByTenant.
	EnteredBy string `bun:"entered_by,notnull"`
}

// Who entered a reading: the landlord (their routes and imports) or the
// contract's tenant through the tenant portal.
const (
	ByLandlord = "landlord"
	ByTenant   = "tenant"
)

// The kinds of counter.
const (
	KindElectricity = "electricity"
	KindGas         = "gas"
	KindWaterCold   = "water_cold"
	KindWaterHot    = "water_hot"
	KindHeating     = "heating"
	KindOther       = "other"
)

// Kinds lists the kinds in their documented order.
var Kinds = []string{KindElectricity, KindGas, KindWaterCold, KindWaterHot, KindHeating, KindOther}

// Units lists the units.
var Units = []string{"kWh", "m3", "Gcal", "unit"}

// kindUnits are the units a kind may be measured in, its default first.
var kindUnits = map[string][]string{
	KindElectricity: {"kWh"},
	KindGas:         {"m3", "kWh"},
	KindWaterCold:   {"m3"},
	KindWaterHot:    {"m3"},
	KindHeating:     {"Gcal", "kWh"},
	KindOther:       {"unit", "kWh", "m3", "Gcal"},
}

// kindLabels name a kind in charges and as a counter's default name.
var kindLabels = map[string]string{
	KindElectricity: "Electricity",
	KindGas:         "Gas",
	KindWaterCold:   "Cold water",
	KindWaterHot:    "Hot water",
	KindHeating:     "Heating",
	KindOther:       "Meter",
}
