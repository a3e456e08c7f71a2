package accounts

import (
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// User is a row of users.
type User struct {
	bun.BaseModel `bun:"table:users"`

	ID           int64   `bun:"id,pk,autoincrement"`
	Email        string  `bun:"email,notnull"`
	Name         string  `bun:"name,notnull"`
	Phone        *string `bun:"phone"`
	PasswordHash string  `bun:"password_hash,notnull"`
	Locale       string  `bun:"locale,notnull"`
	CountryCode  string  `bun:"country_code,notnull"`
	Roles        Roles   `bun:"roles,notnull"`
	IsActive     bool    `bun:"is_active,notnull"`
	TokenVersion int     `bun:"token_version,notnull"`
	// The postal address (AddressLine empty: none on file). The profile
	// sets the four together.
	AddressLine       string    `bun:"address_line,notnull"`
	AddressPostalCode string    `bun:"address_postal_code,notnull"`
	AddressCity       string    `bun:"address_city,notnull"`
	AddressCountry    string    `bun:"address_country_code,notnull"`
	CreatedAt         time.Time `bun:"created_at,notnull"`
	UpdatedAt         time.Time `bun:"updated_at,notnull"`
	// LandlordType is LandlordPerson or LandlordCompany; empty reads as a
	// natural person (LandlordTypeOf).
	LandlordType string `bun:"landlord_type,notnull"`
}

// PostalAddress is the user's postal address, nil when none is on file.
func (u *User) PostalAddress() *PostalAddress {
	if u.AddressLine == "" {
		return nil
	}
	return &PostalAddress{Address: u.AddressLine, PostalCode: u.AddressPostalCode, City: u.AddressCity, CountryCode: u.AddressCountry}
}

// Roles is a set of role names kept in one comma-separated column.
type Roles string

// List returns the role names.
func (r Roles) List() []string {
	if r == "" {
		return []string{}
	}
	return strings.Split(string(r), ",")
}

// RolesOf joins role names for storage.
func RolesOf(names ...string) Roles { return Roles(strings.Join(names, ",")) }

// VerificationCode is a pending registration: the keyed hash of the code sent
// to Email and what step 1 said about the user.
type VerificationCode struct {
	bun.BaseModel `bun:"table:verification_codes"`

	Email     string  `bun:"email,pk"`
	CodeHash  string  `bun:"code_hash,notnull"`
	Name      string  `bun:"name,notnull"`
	Locale    *string `bun:"locale"`
	Attempts  int     `bun:"attempts,notnull"`
	ExpiresMS int64   `bun:"expires_ms,notnull"`
	CreatedMS int64   `bun:"created_ms,notnull"`
}

// The kinds of landlord an account holder lets as (the profile's
// landlord_type).
const (
	LandlordPerson  = "natural_person"
	LandlordCompany = "company"
)

// LandlordTypeOf is the user's landlord type, natural_person unless set.
func (u *User) LandlordTypeOf() string {
	if u.LandlordType == LandlordCompany {
		return LandlordCompany
	}
	return LandlordPerson
}
