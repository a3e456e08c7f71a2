package assets

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/period"
)

// Conditions are an asset's possible conditions, best first.
var Conditions = []string{"new", "good", "fair", "poor", "broken"}

// The inspection kinds.
const (
	CheckIn  = "check_in"
	CheckOut = "check_out"
)

// Asset is a row of assets.
type Asset struct {
	bun.BaseModel `bun:"table:assets"`

	ID          uuid.UUID `bun:"id,pk"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	PropertyID  uuid.UUID `bun:"property_id,notnull"`
	Name        string    `bun:"name,notnull"`
	Category    string    `bun:"category,notnull"`
	Quantity    int       `bun:"quantity,notnull"`
	Condition   string    `bun:"condition,notnull"`
	// ValueMinor is in cents (a plain integer: bun writes a *money.Amount
	// as JSON), nil when no value was recorded.
	ValueMinor *int64    `bun:"value_minor"`
	Serial     string    `bun:"serial,notnull"`
	Photos     string    `bun:"photos,notnull"`
	CreatedAt  time.Time `bun:"created_at,notnull"`
	UpdatedAt  time.Time `bun:"updated_at,notnull"`
}

// Inspection is a row of inspections.
type Inspection struct {
	bun.BaseModel `bun:"table:inspections"`

	ID          uuid.UUID   `bun:"id,pk"`
	WorkspaceID int64       `bun:"workspace_id,notnull"`
	PropertyID  uuid.UUID   `bun:"property_id,notnull"`
	ContractID  uuid.UUID   `bun:"contract_id,notnull"`
	Kind        string      `bun:"kind,notnull"`
	InspectedOn period.Date `bun:"inspected_on,notnull"`
	Notes       string      `bun:"notes,notnull"`
	Photos      string      `bun:"photos,notnull"`
	Items       string      `bun:"items,notnull"`
	Readings    string      `bun:"readings,notnull"`
	CreatedBy   int64       `bun:"created_by,notnull"`
	CreatedAt   time.Time   `bun:"created_at,notnull"`
}

// Item is one asset's state at an inspection (stored as JSON).
type Item struct {
	AssetID   string `json:"asset_id"`
	Name      string `json:"name"`
	Condition string `json:"condition"`
	Notes     string `json:"notes"`
}

// MeterReading is one meter reading taken at an inspection, as the
// counters module recorded it (stored as JSON).
type MeterReading struct {
	CounterID string          `json:"counter_id"`
	Counter   string          `json:"counter"`
	Unit      string          `json:"unit"`
	ReadingID string          `json:"reading_id"`
	Value     jsonNumberValue `json:"value"`
}

// jsonNumberValue keeps a meter value as the counters module wrote it
// (exactly 3 decimals).
type jsonNumberValue string

// MarshalJSON writes the number as it is.
func (v jsonNumberValue) MarshalJSON() ([]byte, error) { return []byte(v), nil }

// UnmarshalJSON keeps the number's text.
func (v *jsonNumberValue) UnmarshalJSON(b []byte) error {
	*v = jsonNumberValue(b)
	return nil
}

// Change is an asset whose condition differs between check-in and
// check-out; Before or After is empty when the asset was not inspected
// then.
type Change struct {
	AssetID string  `json:"asset_id"`
	Name    string  `json:"name"`
	Before  *string `json:"before"`
	After   *string `json:"after"`
}
