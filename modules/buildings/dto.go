package buildings

import (
	"github.com/google/uuid"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Input is the body of POST (name and country_code required) and PUT
// (every field optional) of a building.
type Input struct {
	Name        *string `json:"name" validate:"omitnil,min=1,max=200"`
	Address     *string `json:"address" validate:"omitnil,max=500"`
	PostalCode  *string `json:"postal_code" validate:"omitnil,max=20"`
	City        *string `json:"city" validate:"omitnil,max=200"`
	CountryCode *string `json:"country_code"`
}

// UnitInput is the body of PUT .../units/{propertyId}.
type UnitInput struct {
	Rooms       *int64  `json:"rooms" validate:"omitnil,min=0,max=1000"`
	Floor       *int64  `json:"floor" validate:"omitnil,min=-20,max=300"`
	Share       *Share  `json:"share"`
	HeatingType *string `json:"heating_type"`
	Use         *string `json:"use"`
}

// HouseholdInput is the body of POST /contracts/{contractId}/household.
type HouseholdInput struct {
	Persons *int64       `json:"persons" validate:"required,min=0,max=100"`
	From    *period.Date `json:"from" validate:"required"`
}

type buildingJSON struct {
	ID          uuid.UUID `json:"id"`
	Name        string    `json:"name"`
	Address     string    `json:"address"`
	PostalCode  string    `json:"postal_code"`
	City        string    `json:"city"`
	CountryCode string    `json:"country_code"`
	CreatedAt   string    `json:"created_at"`
	UpdatedAt   string    `json:"updated_at"`
}

func toJSON(b *Building) buildingJSON {
	return buildingJSON{ID: b.ID, Name: b.Name, Address: b.Address, PostalCode: b.PostalCode, City: b.City,
		CountryCode: b.Country, CreatedAt: b.CreatedAt.UTC().Format("2006-01-02T15:04:05Z07:00"),
		UpdatedAt: b.UpdatedAt.UTC().Format("2006-01-02T15:04:05Z07:00")}
}

type unitJSON struct {
	PropertyID  uuid.UUID     `json:"property_id"`
	BuildingID  uuid.UUID     `json:"building_id"`
	Name        string        `json:"name"`
	LivingArea  *money.Amount `json:"living_area"`
	Rooms       *int64        `json:"rooms"`
	Floor       *int64        `json:"floor"`
	Share       *Share        `json:"share"`
	HeatingType string        `json:"heating_type"`
	Use         string        `json:"use"`
}

type householdJSON struct {
	ID         uuid.UUID   `json:"id"`
	ContractID uuid.UUID   `json:"contract_id"`
	Persons    int64       `json:"persons"`
	From       period.Date `json:"from"`
}
