package taxyear

import (
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
