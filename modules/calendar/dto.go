package calendar

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
)

// eventJSON is a stored event as the API shows it.
type eventJSON struct {
	ID          string         `json:"id"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Kind        string         `json:"kind"`
	StartsAt    string         `json:"starts_at"`
	EndsAt      string         `json:"ends_at"`
	AllDay      bool           `json:"all_day"`
	TimeZone    string         `json:"time_zone"`
	RRule       *string        `json:"rrule"`
	ExDates     []string       `json:"exdates"`
	Overrides   []overrideJSON `json:"overrides"`
	PropertyID  *string        `json:"property_id"`
	ContractID  *string        `json:"contract_id"`
	Attendees   []string       `json:"attendees"`
	Reminders   []int          `json:"reminders"`
	Sequence    int            `json:"sequence"`
	CreatedAt   string         `json:"created_at"`
	UpdatedAt   string         `json:"updated_at"`
}

type overrideJSON struct {
	Occurrence  string  `json:"occurrence"`
	StartsAt    string  `json:"starts_at"`
	EndsAt      string  `json:"ends_at"`
	Title       *string `json:"title"`
	Description *string `json:"description"`
}

func idText(id *uuid.UUID) *string {
	if id == nil {
		return nil
	}
	s := id.String()
	return &s
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func toJSON(e *Event) eventJSON {
	loc, ok := zone(e.TimeZone)
	if !ok {
		loc = time.UTC
	}
	v := eventJSON{ID: e.ID.String(), Title: e.Title, Description: e.Description, Kind: e.Kind,
		StartsAt: timeText(e.StartsAt, e.AllDay, loc), EndsAt: timeText(e.EndsAt, e.AllDay, loc), AllDay: e.AllDay,
		TimeZone: e.TimeZone, PropertyID: idText(e.PropertyID), ContractID: idText(e.ContractID),
		ExDates: []string{}, Overrides: []overrideJSON{}, Attendees: []string{}, Reminders: []int{},
		Sequence: e.Sequence, CreatedAt: stamp(e.CreatedAt), UpdatedAt: stamp(e.UpdatedAt)}
	if e.RRule != "" {
		r := e.RRule
		v.RRule = &r
	}
	var ex []time.Time
	var ov []Override
	_ = json.Unmarshal([]byte(e.ExDates), &ex)
	_ = json.Unmarshal([]byte(e.Overrides), &ov)
	_ = json.Unmarshal([]byte(e.Attendees), &v.Attendees)
	_ = json.Unmarshal([]byte(e.Reminders), &v.Reminders)
	for _, t := range ex {
		v.ExDates = append(v.ExDates, timeText(t, e.AllDay, loc))
	}
	for _, o := range ov {
		v.Overrides = append(v.Overrides, overrideJSON{Occurrence: timeText(o.Occurrence, e.AllDay, loc),
			StartsAt: timeText(o.StartsAt, e.AllDay, loc), EndsAt: timeText(o.EndsAt, e.AllDay, loc),
			Title: o.Title, Description: o.Description})
	}
	if v.Attendees == nil {
		v.Attendees = []string{}
	}
	if v.Reminders == nil {
		v.Reminders = []int{}
	}
	return v
}

// occurrenceJSON is one entry of a window.
type occurrenceJSON struct {
	ID           string  `json:"id"`
	Source       string  `json:"source"`
	EventID      *string `json:"event_id"`
	Kind         string  `json:"kind"`
	Title        string  `json:"title"`
	Description  string  `json:"description"`
	StartsAt     string  `json:"starts_at"`
	EndsAt       string  `json:"ends_at"`
	AllDay       bool    `json:"all_day"`
	TimeZone     *string `json:"time_zone"`
	RecurrenceID *string `json:"recurrence_id"`
	PropertyID   *string `json:"property_id"`
	ContractID   *string `json:"contract_id"`
	Sequence     int     `json:"sequence"`
}

func occurrenceView(o *Occurrence) occurrenceJSON {
	loc := o.Loc
	if loc == nil {
		loc = time.UTC
	}
	v := occurrenceJSON{ID: o.ID, Source: o.Source, EventID: idText(o.EventID), Kind: o.Kind, Title: o.Title,
		Description: o.Description, StartsAt: timeText(o.Start, o.AllDay, loc), EndsAt: timeText(o.End, o.AllDay, loc),
		AllDay: o.AllDay, PropertyID: idText(o.PropertyID), ContractID: idText(o.ContractID), Sequence: o.Sequence}
	if o.Loc != nil {
		z := o.Loc.String()
		v.TimeZone = &z
	}
	if o.Recurrence != nil {
		r := timeText(*o.Recurrence, o.AllDay, loc)
		v.RecurrenceID = &r
	}
	return v
}

type windowJSON struct {
	From        string           `json:"from"`
	To          string           `json:"to"`
	TimeZone    string           `json:"time_zone"`
	Occurrences []occurrenceJSON `json:"occurrences"`
}

type feedTokenJSON struct {
	Token string `json:"token"`
	URL   string `json:"url"`
}
