package contragents

import (
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// The roles a contragent can have.
const (
	RoleTenant    = "tenant"
	RoleGuarantor = "guarantor"
	RoleProvider  = "provider"
)

// The kinds of contragent.
const (
	KindPerson  = "person"
	KindCompany = "company"
)

// Roles lists every role in its canonical order.
var Roles = []string{RoleTenant, RoleGuarantor, RoleProvider}

// Contragent is a row of contragents: one of the landlord's counterparties.
// Optional text fields are empty strings when unset.
type Contragent struct {
	bun.BaseModel `bun:"table:contragents"`

	ID          uuid.UUID `bun:"id,pk"`
	OwnerID     int64     `bun:"owner_id,notnull"`
	WorkspaceID int64     `bun:"workspace_id,notnull"`
	Kind        string    `bun:"kind,notnull"`
	// Roles are distinct, in the order of the package's Roles, never empty;
	// stored as a JSON array.
	Roles      []string  `bun:"roles,notnull"`
	Name       string    `bun:"name,notnull"`
	NameSearch string    `bun:"name_search,notnull"`
	Email      string    `bun:"email,notnull"`
	Phone      string    `bun:"phone,notnull"`
	Address    string    `bun:"address,notnull"`
	TaxID      string    `bun:"tax_id,notnull"`
	Notes      string    `bun:"notes,notnull"`
	CreatedAt  time.Time `bun:"created_at,notnull"`
	UpdatedAt  time.Time `bun:"updated_at,notnull"`
}

// HasRole reports whether c has role.
func (c *Contragent) HasRole(role string) bool {
	return slices.Contains(c.Roles, role)
}
