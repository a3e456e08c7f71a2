package taxyear

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"

	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

type lineJSON struct {
	Line   string        `json:"line"`
	Key    string        `json:"key"`
	Kind   string        `json:"kind"`
	Label  string        `json:"label"`
	Amount *money.Amount `json:"amount"`
}

type blockJSON struct {
	PropertyID   *uuid.UUID `json:"property_id"`
	PropertyName *string    `json:"property_name"`
	Country      *string    `json:"country_code"`
	Currency     string     `json:"currency"`
	Lines        []lineJSON `json:"lines"`
}

type reportJSON struct {
	Form       string      `json:"form"`
	Year       int         `json:"year"`
	From       period.Date `json:"from"`
	To         period.Date `json:"to"`
	Basis      string      `json:"basis"`
	Locale     string      `json:"locale"`
	Title      string      `json:"title"`
	Properties []blockJSON `json:"properties"`
	Totals     []blockJSON `json:"totals"`
}

func blockOf(b *Block) blockJSON {
	out := blockJSON{PropertyID: b.PropertyID, Currency: b.Currency, Lines: make([]lineJSON, len(b.Lines))}
	if b.PropertyID != nil {
		out.PropertyName, out.Country = &b.Name, &b.Country
	}
	for i, l := range b.Lines {
		out.Lines[i] = lineJSON{Line: l.Line, Key: l.Key, Kind: l.Kind, Label: l.Label, Amount: l.Amount}
	}
	return out
}

func toJSON(r *Report) reportJSON {
	out := reportJSON{Form: r.Form, Year: r.Year, From: r.From, To: r.To, Basis: "cash", Locale: r.Locale, Title: r.Title,
		Properties: make([]blockJSON, len(r.Properties)), Totals: make([]blockJSON, len(r.Totals))}
	for i := range r.Properties {
		out.Properties[i] = blockOf(&r.Properties[i])
	}
	for i := range r.Totals {
		out.Totals[i] = blockOf(&r.Totals[i])
	}
	return out
}

// basisRequest is the body of PUT .../depreciation. The amount and the
// rate arrive raw so that each gets its own exact message.
type basisRequest struct {
	Basis         json.RawMessage `json:"basis"`
	PlacedOn      json.RawMessage `json:"placed_in_service_on"`
	CompletedYear *int            `json:"completed_year"`
	Rate          json.RawMessage `json:"rate"`
}

// input reads the request; the details name each field it could not read.
func (r *basisRequest) input() (BasisInput, []string) {
	var in BasisInput
	var details []string
	if len(r.Basis) > 0 && string(r.Basis) != "null" {
		if a, err := money.Parse(r.Basis); err != nil {
			details = append(details, "basis: "+err.Error())
		} else {
			in.Basis = &a
		}
	}
	if len(r.PlacedOn) > 0 && string(r.PlacedOn) != "null" {
		if d, err := period.ParseJSON(r.PlacedOn); err != nil {
			details = append(details, "placed_in_service_on: must be a date, YYYY-MM-DD")
		} else {
			in.PlacedOn = &d
		}
	}
	in.CompletedYear = r.CompletedYear
	if len(r.Rate) > 0 && string(r.Rate) != "null" {
		// A percentage with at most two decimals, read as money is.
		if a, err := money.Parse(r.Rate); err != nil || a < 0 || a > 10000 {
			details = append(details, "rate: must be a percentage from 0 to 100 with at most two decimals")
		} else {
			c := int64(a)
			in.RateCenti = &c
		}
	}
	return in, details
}

// basisJSON is a depreciation basis as clients see it, with what it
// comes to in the year asked (or the current one).
type basisJSON struct {
	PropertyID    uuid.UUID    `json:"property_id"`
	Method        string       `json:"method"`
	Basis         money.Amount `json:"basis"`
	Currency      string       `json:"currency"`
	PlacedOn      period.Date  `json:"placed_in_service_on"`
	CompletedYear *int         `json:"completed_year"`
	Rate          *float64     `json:"rate"`
	Year          int          `json:"year"`
	YearAmount    money.Amount `json:"year_amount"`
	CreatedAt     string       `json:"created_at"`
	UpdatedAt     string       `json:"updated_at"`
}

func basisOf(b *Basis, year int) basisJSON {
	out := basisJSON{PropertyID: b.PropertyID, Method: b.Method, Basis: b.Basis, Currency: b.Currency, PlacedOn: b.PlacedOn,
		CompletedYear: b.CompletedYear, Year: year, YearAmount: b.yearAmount(year),
		CreatedAt: b.CreatedAt.UTC().Format(time.RFC3339), UpdatedAt: b.UpdatedAt.UTC().Format(time.RFC3339)}
	if b.Method == MethodLinear {
		r := float64(b.RateCenti) / 100
		out.Rate = &r
	}
	return out
}
