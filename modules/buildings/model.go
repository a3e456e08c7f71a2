package buildings

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/period"
)

// Building is a row of buildings: an address that groups units.
type Building struct {
	bun.BaseModel `bun:"table:buildings"`

	ID          uuid.UUID `bun:"id,pk"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	OwnerID     int64     `bun:"owner_id,notnull"`
	Name        string    `bun:"name,notnull"`
	Address     string    `bun:"address,notnull"`
	PostalCode  string    `bun:"postal_code,notnull"`
	City        string    `bun:"city,notnull"`
	Country     string    `bun:"country_code,notnull"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
	UpdatedAt   time.Time `bun:"updated_at,notnull"`
}

// The heating types a unit may have.
var HeatingTypes = []string{"unknown", "central", "district", "storey", "individual", "none"}

// The uses a unit may have: a dwelling, or premises let for another use
// (an office, a shop). The CO2 cost of a non-residential unit is split
// 50/50 (§ 8 CO2KostAufG) instead of by the building's tier.
const (
	UseResidential    = "residential"
	UseNonResidential = "non_residential"
)

// Uses are the uses a unit may have.
var Uses = []string{UseResidential, UseNonResidential}

// Unit is a property's membership of a building with the data an
// operating-cost key reads (the living area stays on the property).
type Unit struct {
	bun.BaseModel `bun:"table:building_units"`

	PropertyID uuid.UUID `bun:"property_id,pk"`
	BuildingID uuid.UUID `bun:"building_id,notnull"`
	Rooms      *int64    `bun:"rooms"`
	Floor      *int64    `bun:"floor"`
	// ShareE4 is the Share as a plain integer: bun would write a type
	// with its own MarshalJSON as JSON text.
	ShareE4     *int64    `bun:"share_e4"`
	HeatingType string    `bun:"heating_type,notnull"`
	Use         string    `bun:"unit_use,notnull"`
	UpdatedAt   time.Time `bun:"updated_at,notnull"`
}

// Household is the number of persons under a contract from a day on.
type Household struct {
	bun.BaseModel `bun:"table:contract_households"`

	ID          uuid.UUID   `bun:"id,pk"`
	ContractID  uuid.UUID   `bun:"contract_id,notnull"`
	WorkspaceID int64       `bun:"workspace_id,notnull"`
	Persons     int64       `bun:"persons,notnull"`
	From        period.Date `bun:"from_date,notnull"`
	CreatedAt   time.Time   `bun:"created_at,notnull"`
}

// Share is a unit's share of its building (Miteigentumsanteil,
// tantièmes) in ten-thousandths: a decimal with up to 4 places in JSON,
// never a float.
type Share int64

// MarshalJSON writes the share as a plain decimal number.
func (s Share) MarshalJSON() ([]byte, error) { return []byte(s.String()), nil }

// String writes the share with its decimals, trailing zeros dropped.
func (s Share) String() string {
	whole, frac := int64(s)/10000, int64(s)%10000
	if frac == 0 {
		return strconv.FormatInt(whole, 10)
	}
	return strings.TrimRight(fmt.Sprintf("%d.%04d", whole, frac), "0")
}

// UnmarshalJSON reads a non-negative decimal number with at most 4 places.
func (s *Share) UnmarshalJSON(b []byte) error {
	text := string(bytes.TrimSpace(b))
	whole, frac, _ := strings.Cut(text, ".")
	if whole == "" || len(frac) > 4 || strings.ContainsAny(whole, "+-eE") || strings.ContainsAny(frac, "+-eE") {
		return fmt.Errorf("share: must be a non-negative number with at most 4 decimals")
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1_000_000_000 {
		return fmt.Errorf("share: must be a non-negative number with at most 4 decimals")
	}
	f := int64(0)
	if frac != "" {
		frac += strings.Repeat("0", 4-len(frac))
		if f, err = strconv.ParseInt(frac, 10, 64); err != nil {
			return fmt.Errorf("share: must be a non-negative number with at most 4 decimals")
		}
	}
	*s = Share(w*10000 + f)
	return nil
}
