package assets

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/propman/propman/modules/counters"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Bounds of untrusted input.
const (
	maxPhotos   = 50
	maxItems    = 500
	maxReadings = 50
	maxNotes    = 4000
)

// assetRequest is the body of POST and PUT .../assets; every field is
// optional on PUT.
type assetRequest struct {
	Name      *string         `json:"name"`
	Category  *string         `json:"category"`
	Quantity  json.RawMessage `json:"quantity"`
	Condition *string         `json:"condition"`
	Value     json.RawMessage `json:"value"`
	Serial    *string         `json:"serial"`
	Photos    *[]string       `json:"photos"`
}

// assetInput is an asset request as checked.
type assetInput struct {
	name, category, condition, serial *string
	quantity                          *int
	setValue                          bool
	value                             *int64
	photos                            *[]string
	photoIDs                          []uuid.UUID
}

func (in assetInput) apply(a *Asset) {
	if in.name != nil {
		a.Name = *in.name
	}
	if in.category != nil {
		a.Category = *in.category
	}
	if in.condition != nil {
		a.Condition = *in.condition
	}
	if in.serial != nil {
		a.Serial = *in.serial
	}
	if in.quantity != nil {
		a.Quantity = *in.quantity
	}
	if in.setValue {
		a.ValueMinor = in.value
	}
	if in.photos != nil {
		a.Photos = mustJSON(*in.photos)
	}
}

func text(details *[]string, field string, v *string, least, most int) *string {
	if v == nil {
		return nil
	}
	s := strings.TrimSpace(*v)
	if n := utf8.RuneCountInString(s); n < least || n > most {
		if least > 0 {
			*details = append(*details, fmt.Sprintf("%s: must be %d to %d characters", field, least, most))
		} else {
			*details = append(*details, fmt.Sprintf("%s: must be at most %d characters", field, most))
		}
	}
	return &s
}

// ids reads a list of document ids.
func ids(details *[]string, field string, raw []string) []uuid.UUID {
	if len(raw) > maxPhotos {
		*details = append(*details, fmt.Sprintf("%s: at most %d documents", field, maxPhotos))
		return nil
	}
	out := make([]uuid.UUID, 0, len(raw))
	for i, r := range raw {
		id, err := uuid.Parse(r)
		if err != nil || len(r) != 36 {
			*details = append(*details, fmt.Sprintf("%s[%d]: must be a document id", field, i))
			continue
		}
		if slices.Contains(out, id) {
			*details = append(*details, fmt.Sprintf("%s[%d]: appears twice", field, i))
			continue
		}
		out = append(out, id)
	}
	return out
}

func (r *assetRequest) input(create bool) (assetInput, []string) {
	var in assetInput
	var details []string
	if create && r.Name == nil {
		details = append(details, "name: is required")
	}
	in.name = text(&details, "name", r.Name, 1, 200)
	in.category = text(&details, "category", r.Category, 0, 50)
	in.serial = text(&details, "serial", r.Serial, 0, 100)
	if r.Condition != nil {
		if !slices.Contains(Conditions, *r.Condition) {
			details = append(details, "condition: must be one of new, good, fair, poor, broken")
		}
		c := strings.Clone(*r.Condition)
		in.condition = &c
	}
	if r.Quantity != nil {
		var q int
		if err := json.Unmarshal(r.Quantity, &q); err != nil || q < 1 || q > 100000 {
			details = append(details, "quantity: must be a whole number from 1 to 100000")
		} else {
			in.quantity = &q
		}
	}
	if r.Value != nil {
		in.setValue = true
		if string(r.Value) != "null" {
			a, err := money.Parse(r.Value)
			switch {
			case err != nil:
				details = append(details, "value: "+err.Error())
			case a < 0:
				details = append(details, "value: must not be negative")
			default:
				v := int64(a)
				in.value = &v
			}
		}
	}
	if r.Photos != nil {
		in.photoIDs = ids(&details, "photos", *r.Photos)
		s := make([]string, len(in.photoIDs))
		for i, id := range in.photoIDs {
			s[i] = id.String()
		}
		in.photos = &s
	}
	return in, details
}

// assetJSON is an asset as clients see it.
type assetJSON struct {
	ID         string        `json:"id"`
	PropertyID string        `json:"property_id"`
	Name       string        `json:"name"`
	Category   string        `json:"category"`
	Quantity   int           `json:"quantity"`
	Condition  string        `json:"condition"`
	Value      *money.Amount `json:"value"`
	Serial     string        `json:"serial"`
	Photos     []string      `json:"photos"`
	CreatedAt  string        `json:"created_at"`
	UpdatedAt  string        `json:"updated_at"`
}

func assetOut(a *Asset) assetJSON {
	var v *money.Amount
	if a.ValueMinor != nil {
		m := money.Amount(*a.ValueMinor)
		v = &m
	}
	return assetJSON{ID: a.ID.String(), PropertyID: a.PropertyID.String(), Name: a.Name, Category: a.Category,
		Quantity: a.Quantity, Condition: a.Condition, Value: v, Serial: a.Serial, Photos: parseIDs(a.Photos),
		CreatedAt: properties.Timestamp(a.CreatedAt), UpdatedAt: properties.Timestamp(a.UpdatedAt)}
}

// inspectionRequest is the body of POST .../assets/inspections.
type inspectionRequest struct {
	ContractID  string          `json:"contract_id"`
	Kind        string          `json:"kind"`
	InspectedOn json.RawMessage `json:"inspected_on"`
	Notes       *string         `json:"notes" validate:"omitnil,multiline"`
	Photos      []string        `json:"photos"`
	Items       []struct {
		AssetID   string `json:"asset_id"`
		Condition string `json:"condition"`
		Notes     string `json:"notes"`
	} `json:"items"`
	Readings []struct {
		CounterID string          `json:"counter_id"`
		Value     json.RawMessage `json:"value"`
	} `json:"readings"`
}

func (r *inspectionRequest) input() (InspectionInput, []string) {
	var in InspectionInput
	var details []string
	id, err := uuid.Parse(r.ContractID)
	if err != nil || len(r.ContractID) != 36 {
		details = append(details, "contract_id: must be the id of a contract of this property")
	}
	in.ContractID = id
	if r.Kind != CheckIn && r.Kind != CheckOut {
		details = append(details, "kind: must be check_in or check_out")
	}
	in.Kind = strings.Clone(r.Kind)
	if r.InspectedOn == nil || string(r.InspectedOn) == "null" {
		details = append(details, "inspected_on: is required")
	} else if d, err := period.ParseJSON(r.InspectedOn); err != nil {
		details = append(details, "inspected_on: "+err.Error())
	} else {
		in.InspectedOn = d
	}
	if n := text(&details, "notes", r.Notes, 0, maxNotes); n != nil {
		in.Notes = *n
	}
	in.Photos = ids(&details, "photos", r.Photos)
	if len(r.Items) > maxItems {
		details = append(details, fmt.Sprintf("items: at most %d", maxItems))
		r.Items = nil
	}
	seen := map[uuid.UUID]bool{}
	for i, it := range r.Items {
		id, err := uuid.Parse(it.AssetID)
		switch {
		case err != nil || len(it.AssetID) != 36:
			details = append(details, fmt.Sprintf("items[%d].asset_id: must be an asset id", i))
		case seen[id]:
			details = append(details, fmt.Sprintf("items[%d].asset_id: appears twice", i))
		}
		seen[id] = true
		if !slices.Contains(Conditions, it.Condition) {
			details = append(details, fmt.Sprintf("items[%d].condition: must be one of new, good, fair, poor, broken", i))
		}
		notes := strings.TrimSpace(it.Notes)
		if utf8.RuneCountInString(notes) > 1000 {
			details = append(details, fmt.Sprintf("items[%d].notes: must be at most 1000 characters", i))
		}
		in.Items = append(in.Items, ItemInput{AssetID: id, Condition: strings.Clone(it.Condition), Notes: strings.Clone(notes)})
	}
	if len(r.Readings) > maxReadings {
		details = append(details, fmt.Sprintf("readings: at most %d", maxReadings))
		r.Readings = nil
	}
	counted := map[uuid.UUID]bool{}
	for i, rd := range r.Readings {
		id, err := uuid.Parse(rd.CounterID)
		switch {
		case err != nil || len(rd.CounterID) != 36:
			details = append(details, fmt.Sprintf("readings[%d].counter_id: must be a counter id", i))
		case counted[id]:
			details = append(details, fmt.Sprintf("readings[%d].counter_id: appears twice", i))
		}
		counted[id] = true
		v, problems := counters.ParseReading(in.InspectedOn, rd.Value)
		for _, p := range problems {
			if strings.HasPrefix(p, "value") {
				details = append(details, fmt.Sprintf("readings[%d].%s", i, p))
			}
		}
		in.Readings = append(in.Readings, ReadingInput{CounterID: id, Value: v})
	}
	return in, details
}

// inspectionJSON is an inspection as clients see it.
type inspectionJSON struct {
	ID          string         `json:"id"`
	PropertyID  string         `json:"property_id"`
	ContractID  string         `json:"contract_id"`
	Kind        string         `json:"kind"`
	InspectedOn period.Date    `json:"inspected_on"`
	Notes       string         `json:"notes"`
	Photos      []string       `json:"photos"`
	Items       []Item         `json:"items"`
	Readings    []MeterReading `json:"readings"`
	// Changes is set on a check-out: what changed since the check-in.
	Changes   []Change `json:"changes"`
	CreatedAt string   `json:"created_at"`
}

func inspectionOut(ins *Inspection, changes []Change) inspectionJSON {
	items := parseItems(ins.Items)
	if items == nil {
		items = []Item{}
	}
	return inspectionJSON{ID: ins.ID.String(), PropertyID: ins.PropertyID.String(), ContractID: ins.ContractID.String(),
		Kind: ins.Kind, InspectedOn: ins.InspectedOn, Notes: ins.Notes, Photos: parseIDs(ins.Photos), Items: items,
		Readings: parseReadings(ins.Readings), Changes: changes, CreatedAt: properties.Timestamp(ins.CreatedAt)}
}
