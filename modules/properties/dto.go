package properties

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/propman/propman/platform/money"
)

// propertyRequest is the body of POST and PUT. Fields a client may not set
// (id, owner, timestamps) are absent, so they are ignored.
type propertyRequest struct {
	Name        *string `json:"name" validate:"omitnil,min=1,max=200"`
	Address     *string `json:"address" validate:"omitnil,max=500"`
	City        *string `json:"city" validate:"omitnil,max=100"`
	PostalCode  *string `json:"postal_code" validate:"omitnil,max=20"`
	CountryCode *string `json:"country_code" validate:"omitnil,len=2"`
	Currency    *string `json:"currency" validate:"omitnil,len=3"`
	// LivingArea: absent keeps it, null removes it, a number sets it.
	LivingArea json.RawMessage `json:"living_area"`
}

// trim removes surrounding spaces from every given field.
func (r *propertyRequest) trim() {
	for _, f := range []*string{r.Name, r.Address, r.City, r.PostalCode, r.CountryCode, r.Currency} {
		if f != nil {
			*f = strings.TrimSpace(*f)
		}
	}
}

func (r *propertyRequest) input() Input {
	return Input{Name: r.Name, Address: r.Address, City: r.City, PostalCode: r.PostalCode,
		CountryCode: r.CountryCode, Currency: r.Currency, LivingArea: r.LivingArea}
}

// propertyJSON is a property as clients see it.
type propertyJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Address     string `json:"address"`
	City        string `json:"city"`
	PostalCode  string `json:"postal_code"`
	CountryCode string `json:"country_code"`
	Currency    string `json:"currency"`
	// LivingArea is in square metres, null when not given.
	LivingArea *money.Amount `json:"living_area"`
	CreatedAt  string        `json:"created_at"`
	UpdatedAt  string        `json:"updated_at"`
	// ArchivedAt is null while the property is in use.
	ArchivedAt *string `json:"archived_at"`
}

func toJSON(p *Property) propertyJSON {
	out := propertyJSON{
		ID: p.ID.String(), Name: p.Name, Address: p.Address, City: p.City, PostalCode: p.PostalCode,
		CountryCode: p.CountryCode, Currency: p.Currency, LivingArea: p.LivingArea(),
		CreatedAt: Timestamp(p.CreatedAt), UpdatedAt: Timestamp(p.UpdatedAt),
	}
	if p.ArchivedAt != nil {
		at := Timestamp(*p.ArchivedAt)
		out.ArchivedAt = &at
	}
	return out
}

// Timestamp formats t as RFC 3339 in UTC, to the second, as every record
// of the property area shows its times.
func Timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
