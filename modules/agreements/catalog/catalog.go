// Package catalog ships the seed catalogue of agreement blocks (rental
// contract conditions) as embedded JSON, with names and descriptions in every
// supported locale. blocks.json holds generic blocks (country null,
// sort_order 10..) and country-specific ones (sort_order 1000 and up: DE 1010..,
// FR 1110.., ES 1210.., UA 1310..). example-import.json beside it shows the
// same format for operator-supplied blocks; it is not embedded.
package catalog

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
)

// Blocks is the raw JSON array of the seed catalogue.
//
//go:embed blocks.json
var Blocks []byte

// Locales are the locale keys every name and description carries.
var Locales = []string{"en", "de", "fr", "es", "uk"}

// DataTypes are the allowed values of data_type.
var DataTypes = []string{"int", "float", "bool", "text", "date"}

var (
	codeRE    = regexp.MustCompile(`^[A-Z][A-Z0-9_]{1,63}$`)
	countryRE = regexp.MustCompile(`^[A-Z]{2}$`)
)

// Block is one entry of the catalogue.
type Block struct {
	Code        string            `json:"code"`
	DataType    string            `json:"data_type"`
	Country     *string           `json:"country"`
	Name        map[string]string `json:"name"`
	Description map[string]string `json:"description"`
	ImageURL    *string           `json:"image_url"`
	SortOrder   int               `json:"sort_order"`
}

// Load parses and validates the embedded catalogue.
func Load() ([]Block, error) {
	return Parse(Blocks)
}

// Parse decodes a JSON array of blocks in the catalogue format (unknown
// fields are rejected) and validates it with Validate.
func Parse(data []byte) ([]Block, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var bs []Block
	if err := dec.Decode(&bs); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	if err := Validate(bs); err != nil {
		return nil, err
	}
	return bs, nil
}

// Validate checks every block: code format and uniqueness, data type,
// country format, and a non-empty name and description in each of Locales.
func Validate(bs []Block) error {
	seen := make(map[string]bool, len(bs))
	for i, b := range bs {
		if !codeRE.MatchString(b.Code) {
			return fmt.Errorf("catalog: block %d: invalid code %q", i, b.Code)
		}
		if seen[b.Code] {
			return fmt.Errorf("catalog: duplicate code %q", b.Code)
		}
		seen[b.Code] = true
		if !validType(b.DataType) {
			return fmt.Errorf("catalog: %s: invalid data_type %q", b.Code, b.DataType)
		}
		if b.Country != nil && !countryRE.MatchString(*b.Country) {
			return fmt.Errorf("catalog: %s: invalid country %q", b.Code, *b.Country)
		}
		for _, l := range Locales {
			if b.Name[l] == "" {
				return fmt.Errorf("catalog: %s: name lacks locale %q", b.Code, l)
			}
			if b.Description[l] == "" {
				return fmt.Errorf("catalog: %s: description lacks locale %q", b.Code, l)
			}
		}
	}
	return nil
}

func validType(t string) bool {
	for _, d := range DataTypes {
		if t == d {
			return true
		}
	}
	return false
}
