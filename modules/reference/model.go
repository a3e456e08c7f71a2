package reference

import "github.com/uptrace/bun"

// Country is an ISO 3166-1 country.
type Country struct {
	bun.BaseModel `bun:"table:countries"`

	ID        int64             `bun:"id,pk,autoincrement" json:"id"`
	Code      string            `bun:"code,notnull" json:"code"`
	Name      map[string]string `bun:"name,type:json,notnull" json:"name"`
	PhoneCode string            `bun:"phone_code,notnull" json:"phone_code"`
	Currency  string            `bun:"currency,notnull" json:"currency"`
	IsActive  bool              `bun:"is_active,notnull" json:"-"`
}

// Language is an ISO 639-1 language.
type Language struct {
	bun.BaseModel `bun:"table:languages"`

	ID         int64  `bun:"id,pk,autoincrement" json:"id"`
	Code       string `bun:"code,notnull" json:"code"`
	Name       string `bun:"name,notnull" json:"name"`
	NativeName string `bun:"native_name,notnull" json:"native_name"`
	IsActive   bool   `bun:"is_active,notnull" json:"-"`
}
