package translations

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
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
	// encoded holds, per dictionary locale, every entry as the JSON member
	// `"key":"text"`, made once, so that POST /translations writes its
	// answer without encoding anything but the keys it does not know.
	encoded sync.Map // locale -> map[string][]byte
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

// members returns the encoded members of locale's dictionary (English when
// it has none). The key of the cache is a dictionary's own locale string.
func (d *Dictionaries) members(locale string) (map[string][]byte, error) {
	if _, ok := d.merged[locale]; !ok {
		locale = fallback
	}
	if m, ok := d.encoded.Load(locale); ok {
		return m.(map[string][]byte), nil
	}
	dict := d.merged[locale]
	m := make(map[string][]byte, len(dict))
	for k, v := range dict {
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		m[k] = append(append(kb, ':'), vb...)
	}
	for l := range d.merged {
		if l == locale {
			d.encoded.Store(l, m)
		}
	}
	return m, nil
}

// SelectJSON is the body of POST /translations: {"locale", "translations"
// (the texts of keys, keys in sorted order, as encoding/json writes a map),
// "missing" (the keys no dictionary has, in the order asked, without
// repeats)}, written from the pre-encoded members.
func (d *Dictionaries) SelectJSON(locale string, keys []string) ([]byte, error) {
	members, err := d.members(locale)
	if err != nil {
		return nil, err
	}
	found := make([]string, 0, len(keys))
	var missing []string
	seen := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		if _, ok := members[k]; ok {
			found = append(found, k)
		} else {
			missing = append(missing, k)
		}
	}
	slices.Sort(found)
	lb, err := json.Marshal(locale)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 64+32*len(found))
	out = append(out, `{"locale":`...)
	out = append(out, lb...)
	out = append(out, `,"translations":{`...)
	for i, k := range found {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, members[k]...)
	}
	out = append(out, `},"missing":[`...)
	for i, k := range missing {
		if i > 0 {
			out = append(out, ',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		out = append(out, kb...)
	}
	return append(out, "]}"...), nil
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
