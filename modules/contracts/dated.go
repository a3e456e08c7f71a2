package contracts

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/period"
)

// Dated is what the calendar reads of a contract: its dates, due day,
// rent and deposit, and the country and name of its property.
type Dated struct {
	bun.BaseModel `bun:"table:contracts,alias:c"`

	ID           uuid.UUID   `bun:"id"`
	PropertyID   uuid.UUID   `bun:"property_id"`
	Number       string      `bun:"number"`
	Status       string      `bun:"status"`
	StartDate    period.Date `bun:"start_date,nullzero"`
	EndDate      period.Date `bun:"end_date,nullzero"`
	TerminatedOn period.Date `bun:"terminated_on,nullzero"`
	DueDay       int         `bun:"due_day"`
	RentMinor    *int64      `bun:"rent_minor"`
	DepositMinor *int64      `bun:"deposit_minor"`
	Country      string      `bun:"country_code"`
	PropertyName string      `bun:"property_name"`
}

// EndsOn is the day the contract ends (its termination day when
// terminated), zero when open-ended.
func (d *Dated) EndsOn() period.Date {
	if d.Status == Terminated && !d.TerminatedOn.IsZero() {
		return d.TerminatedOn
	}
	return d.EndDate
}

// DatedFilter narrows DatedIn and RentChangesIn to one property or contract.
type DatedFilter struct {
	PropertyID *uuid.UUID
	ContractID *uuid.UUID
}

// RentChange is a change of a contract's rent after its start (an
// indexation), from the day it applies.
type RentChange struct {
	bun.BaseModel `bun:"table:contract_rents,alias:r"`

	ID          uuid.UUID   `bun:"id"`
	ContractID  uuid.UUID   `bun:"contract_id"`
	PropertyID  uuid.UUID   `bun:"property_id"`
	Number      string      `bun:"number"`
	From        period.Date `bun:"from_date"`
	AmountMinor int64       `bun:"amount_minor"`
	Currency    string      `bun:"currency"`
}
