// Package data holds the generated reference data: every ISO 3166-1 country
// (countries.json) and every ISO 639-1 language (languages.json).
//
// The files are generated, not edited by hand: see
// modules/reference/internal/gendata for the sources and the few documented
// corrections. Regenerate with `go generate ./modules/reference/data` (or
// `go run ./modules/reference/internal/gendata` from the repository root).
//
// countries.json is an array sorted by code of
//
//	{"code": "DE", "name": {"de": "Deutschland", "en": "Germany", ...},
//	 "phone_code": "+49", "currency": "EUR"}
//
// where name has an entry for every active language and phone_code is the
// E.164 country calling code ("+" and 1 to 3 digits, "+1" for all NANP
// members). languages.json is an array sorted by code of
//
//	{"code": "de", "name": "German", "native_name": "Deutsch", "active": true}
//
// where active marks the languages that have a translation dictionary.
package data

import _ "embed"

//go:generate go run ../internal/gendata -out .

// Countries is the content of countries.json.
//
//go:embed countries.json
var Countries []byte

// Languages is the content of languages.json.
//
//go:embed languages.json
var Languages []byte
