package counters

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/period"
)

// Bounds of the text fields, in characters.
const (
	NameMax   = 200
	SerialMax = 100
)

// counterRequest is the body of POST and PUT of a counter. The tariff and
// contract_id arrive raw, so null (clear) differs from absent (keep).
type counterRequest struct {
	Kind       *string         `json:"kind"`
	Unit       *string         `json:"unit"`
	Serial     *string         `json:"serial"`
	Name       *string         `json:"name"`
	Tariff     json.RawMessage `json:"tariff"`
	ContractID json.RawMessage `json:"contract_id"`
	IsActive   *bool           `json:"is_active"`
}

// CounterInput carries a counter's fields as checked. A nil field is left
// as it is by an update; SetTariff/SetContract with a nil value clear.
type CounterInput struct {
	Kind        *string
	Unit        *string
	Serial      *string
	Name        *string
	Tariff      *Tariff
	SetTariff   bool
	ContractID  *uuid.UUID
	SetContract bool
	IsActive    *bool
}

// input checks the fields one by one and returns one message per broken
// rule; rules across fields (kind and unit) are the service's.
func (r *counterRequest) input() (CounterInput, []string) {
	var details []string
	fail := func(field, rule string) { details = append(details, field+": "+rule) }
	for _, f := range []*string{r.Kind, r.Unit, r.Serial, r.Name} {
		if f != nil {
			*f = strings.TrimSpace(*f)
		}
	}
	in := CounterInput{Kind: r.Kind, Unit: r.Unit, Serial: r.Serial, Name: r.Name, IsActive: r.IsActive}
	if r.Kind != nil && !slices.Contains(Kinds, *r.Kind) {
		fail("kind", "must be one of "+strings.Join(Kinds, ", "))
	}
	if r.Unit != nil && !slices.Contains(Units, *r.Unit) {
		fail("unit", "must be one of "+strings.Join(Units, ", "))
	}
	if r.Name != nil {
		switch n := utf8.RuneCountInString(*r.Name); {
		case n == 0:
			fail("name", "must not be empty")
		case n > NameMax:
			fail("name", fmt.Sprintf("must be at most %d characters", NameMax))
		case strings.IndexFunc(*r.Name, unicode.IsControl) >= 0:
			fail("name", "must not contain control characters")
		}
	}
	if r.Serial != nil {
		switch {
		case utf8.RuneCountInString(*r.Serial) > SerialMax:
			fail("serial", fmt.Sprintf("must be at most %d characters", SerialMax))
		case strings.IndexFunc(*r.Serial, unicode.IsControl) >= 0:
			fail("serial", "must not contain control characters")
		}
	}
	if r.Tariff != nil {
		in.SetTariff = true
		if string(r.Tariff) != "null" {
			v, err := parseFixed(r.Tariff, TariffDecimals, MaxTariff)
			switch {
			case err != nil:
				fail("tariff", err.Error()+", or null")
			case v == 0:
				fail("tariff", "must be more than 0, or null for a counter that bills nothing")
			default:
				t := Tariff(v)
				in.Tariff = &t
			}
		}
	}
	if r.ContractID != nil {
		in.SetContract = true
		if string(r.ContractID) != "null" {
			var s string
			var id uuid.UUID
			err := json.Unmarshal(r.ContractID, &s)
			if err == nil {
				id, err = uuid.Parse(s)
			}
			if err != nil || len(s) != 36 {
				fail("contract_id", "must be the UUID of a contract of the property, or null")
			} else {
				in.ContractID = &id
			}
		}
	}
	return in, details
}

// readingRequest is the body of POST .../readings.
type readingRequest struct {
	ReadOn json.RawMessage `json:"read_on"`
	Value  json.RawMessage `json:"value"`
}

// ReadingInput is a reading as checked.
type ReadingInput struct {
	ReadOn period.Date
	Value  Quantity
	// EnteredBy is ByTenant for a reading sent through the tenant portal;
	// empty is ByLandlord.
	EnteredBy string
}

func (r *readingRequest) input() (ReadingInput, []string) {
	var in ReadingInput
	var details []string
	if r.ReadOn == nil || string(r.ReadOn) == "null" {
		details = append(details, "read_on: is required")
	} else if d, err := period.ParseJSON(r.ReadOn); err != nil {
		details = append(details, "read_on: "+err.Error())
	} else {
		in.ReadOn = d
	}
	if r.Value == nil || string(r.Value) == "null" {
		details = append(details, "value: is required")
	} else if v, err := parseFixed(r.Value, ValueDecimals, MaxValue); err != nil {
		details = append(details, "value: "+err.Error())
	} else {
		in.Value = Quantity(v)
	}
	return in, details
}

// counterJSON is a counter as clients see it.
type counterJSON struct {
	ID         string  `json:"id"`
	PropertyID string  `json:"property_id"`
	ContractID *string `json:"contract_id"`
	Kind       string  `json:"kind"`
	Unit       string  `json:"unit"`
	Serial     string  `json:"serial"`
	Name       string  `json:"name"`
	Tariff     *Tariff `json:"tariff"`
	IsActive   bool    `json:"is_active"`
	CreatedAt  string  `json:"created_at"`
	UpdatedAt  string  `json:"updated_at"`
}

func counterOut(c *Counter) counterJSON {
	return counterJSON{
		ID: c.ID.String(), PropertyID: c.PropertyID.String(), ContractID: idString(c.ContractID),
		Kind: c.Kind, Unit: c.Unit, Serial: c.Serial, Name: c.Name, Tariff: c.Tariff, IsActive: c.IsActive,
		CreatedAt: properties.Timestamp(c.CreatedAt), UpdatedAt: properties.Timestamp(c.UpdatedAt),
	}
}

// readingJSON is a reading as clients see it.
type readingJSON struct {
	ID          string      `json:"id"`
	CounterID   string      `json:"counter_id"`
	ReadOn      period.Date `json:"read_on"`
	Value       Quantity    `json:"value"`
	Consumption *Quantity   `json:"consumption"`
	ChargeID    *string     `json:"charge_id"`
	By          string      `json:"by"`
	CreatedAt   string      `json:"created_at"`
}

func readingOut(r *Reading) readingJSON {
	return readingJSON{
		ID: r.ID.String(), CounterID: r.CounterID.String(), ReadOn: r.ReadOn, Value: r.Value,
		Consumption: r.Consumption, ChargeID: idString(r.ChargeID), By: r.EnteredBy, CreatedAt: properties.Timestamp(r.CreatedAt),
	}
}

func idString(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}
