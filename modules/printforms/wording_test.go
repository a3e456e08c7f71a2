package printforms

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/propman/propman/modules/agreements/catalog"
	"github.com/propman/propman/modules/translations/locales"
)

// Every block of the catalogue has lease wording in every supported
// locale, of its data type's shape (a sentence for yes and for no, or
// one with {value}), using only the placeholders the renderer fills, with
// a choice of noun forms the locale has; and no wording repeats the
// block's guidance text.
func TestEveryBlockHasLeaseWording(t *testing.T) {
	blocks, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	placeholder := regexp.MustCompile(`\{[^}]*\}`)
	forms := map[string]int{"en": 2, "de": 2, "fr": 2, "es": 2, "uk": 3}
	for _, b := range blocks {
		for locale, n := range forms {
			c, ok := wordingOf(b.Code, locale)
			if !ok {
				t.Errorf("%s has no %s wording", b.Code, locale)
				continue
			}
			texts := []string{c.Value}
			if b.DataType == "bool" {
				texts = []string{c.Yes, c.No}
				if c.Value != "" {
					t.Errorf("%s %s: a bool block has a Value sentence", b.Code, locale)
				}
			} else if !strings.Contains(c.Value, "{value}") {
				t.Errorf("%s %s: the sentence does not state the value: %q", b.Code, locale, c.Value)
			}
			for _, text := range texts {
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s %s: empty sentence", b.Code, locale)
				}
				for _, r := range text {
					if r != '\n' && !covered()[r] {
						t.Errorf("%s %s: the fonts cannot draw %q", b.Code, locale, r)
					}
				}
				for _, p := range placeholder.FindAllString(text, -1) {
					switch {
					case p == "{value}" || p == "{deposit}":
					case strings.HasPrefix(p, "{n:"):
						if got := len(strings.Split(p[3:len(p)-1], "|")); got != n {
							t.Errorf("%s %s: %s has %d forms, %s has %d", b.Code, locale, p, got, locale, n)
						}
					default:
						t.Errorf("%s %s: unknown placeholder %s", b.Code, locale, p)
					}
				}
				// Neither the guidance's first sentence nor any later one.
				for _, sentence := range strings.SplitAfter(b.Description[locale], ". ") {
					if sentence = strings.TrimSpace(sentence); len([]rune(sentence)) > 20 && strings.Contains(text, sentence) {
						t.Errorf("%s %s: the wording repeats the guidance %q", b.Code, locale, sentence)
					}
				}
			}
		}
	}
	// No clause in the catalogue of words for a block that is gone.
	raw, err := fs.ReadFile(locales.FS, "en.json")
	if err != nil {
		t.Fatal(err)
	}
	var en map[string]string
	if err := json.Unmarshal(raw, &en); err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for k := range en {
		if rest, ok := strings.CutPrefix(k, "printforms.clause."); ok {
			codes[rest[:strings.LastIndexByte(rest, '.')]] = true
		}
	}
	if len(codes) != len(blocks) {
		t.Errorf("wording for %d blocks, the catalogue has %d", len(codes), len(blocks))
	}
}

// Noun forms follow each language's plural rules (CLDR).
func TestFillPlurals(t *testing.T) {
	for _, c := range []struct {
		locale string
		n      int64
		want   string
	}{
		{"de", 1, "1 Monatsmiete"}, {"de", 2, "2 Monatsmieten"}, {"de", 0, "0 Monatsmieten"},
		{"en", 1, "1 Monatsmiete"}, {"fr", 0, "0 Monatsmiete"}, {"fr", 1, "1 Monatsmiete"}, {"fr", 2, "2 Monatsmieten"},
		{"uk", 1, "1 місяць"}, {"uk", 2, "2 місяці"}, {"uk", 4, "4 місяці"}, {"uk", 5, "5 місяців"}, {"uk", 11, "11 місяців"},
		{"uk", 12, "12 місяців"}, {"uk", 21, "21 місяць"}, {"uk", 22, "22 місяці"}, {"uk", 111, "111 місяців"},
	} {
		text := "{count} {n:Monatsmiete|Monatsmieten}"
		if c.locale == "uk" {
			text = "{count} {n:місяць|місяці|місяців}"
		}
		if got := fill(text, c.locale, c.n, map[string]string{"count": styleOf(c.locale).Int(c.n)}); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.locale, c.n, got, c.want)
		}
	}
	if got := fill("{unknown} {value}", "en", 0, map[string]string{"value": "v"}); got != "{unknown} v" {
		t.Errorf("an unknown placeholder: %q", got)
	}
}
