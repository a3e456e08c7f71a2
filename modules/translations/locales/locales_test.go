package locales

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// missingByDesign lists the keys each locale deliberately lacks, so that the
// per-key English fallback can be tested. Keep it in step with README.md.
var missingByDesign = map[string][]string{
	"de": {"charges.overdue", "dashboard.due_soon", "reference.native_name"},
	"es": {"auth.password.rule_common", "charges.total", "profile.member_since"},
	"fr": {"agreement_blocks.subtitle", "common.unsaved_changes", "expenses.type_hint.YEARLY", "nav.help"},
	"uk": {"app.tagline", "charges.refresh_nothing", "errors.payload_too_large", "reference.search_country"},
}

var (
	keyRe         = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[A-Za-z0-9_]+)+$`)
	placeholderRe = regexp.MustCompile(`\{[a-z_]+\}`)
)

// load parses one dictionary strictly: a flat object of strings, no key twice.
func load(t *testing.T, name string) map[string]string {
	t.Helper()
	b, err := fs.ReadFile(FS, name)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%s: not a JSON object (%v, %v)", name, tok, err)
	}
	dict := map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		key := tok.(string)
		var val string
		if err := dec.Decode(&val); err != nil {
			t.Fatalf("%s: key %q: value is not a string: %v", name, key, err)
		}
		if _, dup := dict[key]; dup {
			t.Errorf("%s: key %q appears twice", name, key)
		}
		dict[key] = val
	}
	if _, err := dec.Token(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if dec.More() {
		t.Fatalf("%s: trailing data after the object", name)
	}
	return dict
}

func placeholders(s string) []string {
	p := placeholderRe.FindAllString(s, -1)
	slices.Sort(p)
	return slices.Compact(p)
}

func TestDictionaries(t *testing.T) {
	files, err := fs.Glob(FS, "*.json")
	if err != nil {
		t.Fatal(err)
	}
	var locales []string
	for _, f := range files {
		locales = append(locales, strings.TrimSuffix(f, ".json"))
	}
	if want := []string{"de", "en", "es", "fr", "uk"}; !slices.Equal(locales, want) {
		t.Errorf("locales = %v, want %v", locales, want)
	}

	en := load(t, "en.json")
	// The one catalogue holds every word a person reads: the bound only
	// catches a file read wrong or emptied.
	if len(en) < 150 || len(en) > 2000 {
		t.Errorf("en.json has %d keys, want 150 to 2000", len(en))
	}
	for k, v := range en {
		if !keyRe.MatchString(k) {
			t.Errorf("en.json: key %q is not a dotted key", k)
		}
		if strings.TrimSpace(v) == "" {
			t.Errorf("en.json: %q is empty", k)
		}
	}

	for _, loc := range locales {
		if loc == "en" {
			continue
		}
		dict := load(t, loc+".json")
		for k, v := range dict {
			ev, ok := en[k]
			if !ok {
				t.Errorf("%s.json: key %q is not in en.json", loc, k)
				continue
			}
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s.json: %q is empty", loc, k)
			}
			if got, want := placeholders(v), placeholders(ev); !slices.Equal(got, want) {
				t.Errorf("%s.json: %q has placeholders %v, en has %v", loc, k, got, want)
			}
		}
		var missing []string
		for k := range en {
			if _, ok := dict[k]; !ok {
				missing = append(missing, k)
			}
		}
		slices.Sort(missing)
		if want := missingByDesign[loc]; !slices.Equal(missing, want) {
			t.Errorf("%s.json lacks %v, want exactly %v (translate new keys, or update README.md and missingByDesign)", loc, missing, want)
		}
	}
}
