// Package locales holds the translation dictionaries of the web client, one flat
// JSON object per locale ({"dotted.key": "text"}), named <locale>.json.
//
// en.json is the reference dictionary: every other locale uses a subset of its
// keys, and a key a locale lacks falls back to the English text. The locales
// that have a file here are the active languages of the reference data.
package locales

import "embed"

// FS holds the dictionaries, one <locale>.json per locale, at its root.
//
//go:embed *.json
var FS embed.FS
