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
