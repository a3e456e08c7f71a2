package properties

import (
	"github.com/propman/propman/platform/money"

	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Property is a row of properties.
type Property struct {
	bun.BaseModel `bun:"table:properties"`

	ID          uuid.UUID `bun:"id,pk"`
	OwnerID     int64     `bun:"owner_id,notnull"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	Name        string    `bun:"name,notnull"`
	Address     string    `bun:"address,notnull"`
	City        string    `bun:"city,notnull"`
	PostalCode  string    `bun:"postal_code,notnull"`
	CountryCode string    `bun:"country_code,notnull"`
	Currency    string    `bun:"currency,notnull"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
	UpdatedAt   time.Time `bun:"updated_at,notnull"`
	// ArchivedAt is when the owner archived the property; nil while it is
	// in use.
	ArchivedAt *time.Time `bun:"archived_at"`
	// LivingAreaCenti is the living area in hundredths of a square metre;
	// nil when not given.
	LivingAreaCenti *int64 `bun:"living_area_centi"`
}

// MaxLivingArea bounds the living area, in square metres.
const MaxLivingArea = 100000

// LivingArea is the living area in square metres with 2 decimals, nil when
// not given. (money.Amount is an exact decimal of 2 places, which is what
// an area is here; it is not money.)
func (p *Property) LivingArea() *money.Amount {
	if p.LivingAreaCenti == nil {
		return nil
	}
	a := money.Amount(*p.LivingAreaCenti)
	return &a
}

// Archived reports whether the property is archived.
func (p *Property) Archived() bool { return p.ArchivedAt != nil }
