package reference

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/reference/data"
)

// Seed writes the shipped countries and languages. It is idempotent: names,
// calling codes and currencies follow the shipped data, but is_active is set
// only when a row is first inserted, so an operator's deactivation survives
// restarts and upgrades.
func Seed(ctx context.Context, db *bun.DB) error {
	var countries []struct {
		Code      string            `json:"code"`
		Name      map[string]string `json:"name"`
		PhoneCode string            `json:"phone_code"`
		Currency  string            `json:"currency"`
	}
	if err := json.Unmarshal(data.Countries, &countries); err != nil {
		return fmt.Errorf("countries.json: %w", err)
	}
	var languages []struct {
		Code       string `json:"code"`
		Name       string `json:"name"`
		NativeName string `json:"native_name"`
		Active     bool   `json:"active"`
	}
	if err := json.Unmarshal(data.Languages, &languages); err != nil {
		return fmt.Errorf("languages.json: %w", err)
	}
	cs := make([]Country, 0, len(countries))
	for _, c := range countries {
		cs = append(cs, Country{Code: c.Code, Name: c.Name, PhoneCode: c.PhoneCode, Currency: c.Currency, IsActive: true})
	}
	ls := make([]Language, 0, len(languages))
	for _, l := range languages {
		ls = append(ls, Language{Code: l.Code, Name: l.Name, NativeName: l.NativeName, IsActive: l.Active})
	}
	return upsert(ctx, db, cs, ls)
}
