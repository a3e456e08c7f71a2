package profile

import (
	"bytes"
	"encoding/json"
)

// updateRequest holds only the fields a user may change. Other fields in the
// body (id, email, roles, is_active, created_at, ...) are ignored by the
// decoder, so they can never be applied.
type updateRequest struct {
	Name        *string       `json:"name"`
	Phone       optionalPhone `json:"phone"`
	Locale      *string       `json:"locale"`
	CountryCode *string       `json:"country_code"`
	// PostalAddress is the landlord's address on contract forms.
	PostalAddress optionalAddress `json:"postal_address"`
	// LandlordType is natural_person or company.
	LandlordType *string `json:"landlord_type"`
	// DefaultWorkspaceID is the workspace requests without X-Workspace-ID
	// act in; one the user is a member of.
	DefaultWorkspaceID *int64 `json:"default_workspace_id"`
}

// optionalPhone tells an absent phone (leave it) from null (clear it).
type optionalPhone struct {
	Present bool
	Value   *string
}

func (p *optionalPhone) UnmarshalJSON(b []byte) error {
	p.Present = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		p.Value = nil
		return nil
	}
	return json.Unmarshal(b, &p.Value)
}

// optionalAddress tells an absent postal_address (leave it) from null
// (remove it) and from an object (replace the whole address).
type optionalAddress struct {
	Present bool
	Value   *addressRequest
}

// addressRequest is a postal address in the shape of a property's.
type addressRequest struct {
	Address     string `json:"address"`
	PostalCode  string `json:"postal_code"`
	City        string `json:"city"`
	CountryCode string `json:"country_code"`
}

func (a *optionalAddress) UnmarshalJSON(b []byte) error {
	a.Present = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		a.Value = nil
		return nil
	}
	// A type error is named by the outer decoder (postal_address.city).
	return json.Unmarshal(b, &a.Value)
}

type passwordRequest struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

type messageResponse struct {
	Message string `json:"message"`
}

type rolesResponse struct {
	Roles []string `json:"roles"`
}
