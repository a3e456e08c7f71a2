package translations

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/propman/propman/modules/translations/locales"
	"github.com/propman/propman/platform/httpserver"
)

// fallback is the locale whose dictionary is complete; every other locale
// falls back to it key by key.
const fallback = "en"

// Dictionaries holds every locale's dictionary merged over English, and the
// precomputed answer of GET /translations/{locale} for each.
type Dictionaries struct {
	merged map[string]map[string]string
	// payloads is filled lazily: a language an operator activates without a
	// dictionary file is served English under its own locale.
	payloads sync.Map // locale -> httpserver.Payload
}

// Load reads the dictionary files of fsys (<locale>.json at its root).
func Load(fsys fs.FS) (*Dictionaries, error) {
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	raw := map[string]map[string]string{}
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		var dict map[string]string
		if err := json.Unmarshal(b, &dict); err != nil {
			return nil, fmt.Errorf("dictionary %s: %w", f, err)
		}
		raw[strings.TrimSuffix(f, ".json")] = dict
	}
	base, ok := raw[fallback]
	if !ok {
		return nil, fmt.Errorf("no %s.json dictionary", fallback)
	}
	d := &Dictionaries{merged: map[string]map[string]string{}}
	for locale, dict := range raw {
		m := make(map[string]string, len(base))
		for k, v := range base {
			m[k] = v
		}
		for k, v := range dict {
			if _, known := base[k]; !known {
				return nil, fmt.Errorf("dictionary %s.json has key %q that %s.json lacks", locale, k, fallback)
			}
			m[k] = v
		}
		d.merged[locale] = m
	}
	return d, nil
}

// Embedded loads the dictionaries shipped in the binary.
func Embedded() (*Dictionaries, error) { return Load(locales.FS) }

// lookup returns the merged dictionary of locale, English when it has none.
func (d *Dictionaries) lookup(locale string) map[string]string {
	if m, ok := d.merged[locale]; ok {
		return m
	}
	return d.merged[fallback]
}

// Payload is the answer of GET /translations/{locale}. The locale may come
// from the request (Fiber's strings point into buffers reused by the next
// request), so the key kept is a copy.
func (d *Dictionaries) Payload(locale string) (httpserver.Payload, error) {
	if p, ok := d.payloads.Load(locale); ok {
		return p.(httpserver.Payload), nil
	}
	locale = strings.Clone(locale)
	p, err := httpserver.NewPayload(dictionary{Locale: locale, Translations: d.lookup(locale)})
	if err != nil {
		return httpserver.Payload{}, err
	}
	d.payloads.Store(locale, p)
	return p, nil
}

// Select returns the texts of keys in locale and the keys no dictionary has,
// in the order asked, without repeats.
func (d *Dictionaries) Select(locale string, keys []string) (map[string]string, []string) {
	dict := d.lookup(locale)
	found := make(map[string]string, len(keys))
	missing := []string{}
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		if v, ok := dict[k]; ok {
			found[k] = v
		} else {
			missing = append(missing, k)
		}
	}
	return found, missing
}

// Locales lists the locales that have a dictionary file.
func (d *Dictionaries) Locales() []string {
	out := make([]string, 0, len(d.merged))
	for l := range d.merged {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

type dictionary struct {
	Locale       string            `json:"locale"`
	Translations map[string]string `json:"translations"`
}
