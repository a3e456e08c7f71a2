package data

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/propman/propman/modules/translations/locales"
)

type country struct {
	Code      string            `json:"code"`
	Name      map[string]string `json:"name"`
	PhoneCode string            `json:"phone_code"`
	Currency  string            `json:"currency"`
}

type lang struct {
	Code       string `json:"code"`
	Name       string `json:"name"`
	NativeName string `json:"native_name"`
	Active     *bool  `json:"active"`
}

var (
	countryCodeRe  = regexp.MustCompile(`^[A-Z]{2}$`)
	languageCodeRe = regexp.MustCompile(`^[a-z]{2}$`)
	// E.164 country calling code: "+" and 1 to 3 digits, no leading zero, no
	// separators, no area code (NANP members are all "+1").
	phoneCodeRe = regexp.MustCompile(`^\+[1-9][0-9]{0,2}$`)
	currencyRe  = regexp.MustCompile(`^[A-Z]{3}$`)
)

var wantActive = []string{"de", "en", "es", "fr", "uk"}

func decodeStrict(t *testing.T, name string, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func loadLanguages(t *testing.T) []lang {
	t.Helper()
	var ls []lang
	decodeStrict(t, "languages.json", Languages, &ls)
	return ls
}

func activeCodes(ls []lang) []string {
	var out []string
	for _, l := range ls {
		if l.Active != nil && *l.Active {
			out = append(out, l.Code)
		}
	}
	return out
}

func TestLanguages(t *testing.T) {
	ls := loadLanguages(t)
	// ISO 639-1 has 183 to 184 codes, depending on whether the deprecated
	// "bh" is counted.
	if len(ls) < 183 || len(ls) > 184 {
		t.Errorf("got %d languages, want the ISO 639-1 set (183-184)", len(ls))
	}
	for i, l := range ls {
		if !languageCodeRe.MatchString(l.Code) {
			t.Errorf("language %d: bad code %q", i, l.Code)
		}
		if i > 0 && ls[i-1].Code >= l.Code {
			t.Errorf("languages not sorted or not unique at %q after %q", l.Code, ls[i-1].Code)
		}
		if strings.TrimSpace(l.Name) == "" || strings.TrimSpace(l.NativeName) == "" {
			t.Errorf("language %s: empty name or native_name: %+v", l.Code, l)
		}
		if l.Active == nil {
			t.Errorf("language %s: no active field", l.Code)
		}
	}
	if got := activeCodes(ls); !slices.Equal(got, wantActive) {
		t.Errorf("active languages = %v, want %v", got, wantActive)
	}
	want := map[string][2]string{
		"de": {"German", "Deutsch"},
		"en": {"English", "English"},
		"es": {"Spanish", "Español"},
		"fr": {"French", "Français"},
		"uk": {"Ukrainian", "Українська"},
	}
	for _, l := range ls {
		if w, ok := want[l.Code]; ok && (l.Name != w[0] || l.NativeName != w[1]) {
			t.Errorf("language %s = %q/%q, want %q/%q", l.Code, l.Name, l.NativeName, w[0], w[1])
		}
	}
}

// The active languages are those with a translation dictionary.
func TestActiveLanguagesHaveDictionaries(t *testing.T) {
	files, err := fs.Glob(locales.FS, "*.json")
	if err != nil {
		t.Fatal(err)
	}
	var dicts []string
	for _, f := range files {
		dicts = append(dicts, strings.TrimSuffix(f, ".json"))
	}
	slices.Sort(dicts)
	if got := activeCodes(loadLanguages(t)); !slices.Equal(got, dicts) {
		t.Errorf("active languages %v differ from the locale dictionaries %v: run go generate ./modules/reference/data", got, dicts)
	}
}

func TestCountries(t *testing.T) {
	var cs []country
	decodeStrict(t, "countries.json", Countries, &cs)
	if len(cs) != 249 {
		t.Errorf("got %d countries, want 249", len(cs))
	}
	active := activeCodes(loadLanguages(t))
	byCode := map[string]country{}
	for i, c := range cs {
		if !countryCodeRe.MatchString(c.Code) {
			t.Errorf("country %d: bad code %q", i, c.Code)
		}
		if i > 0 && cs[i-1].Code >= c.Code {
			t.Errorf("countries not sorted or not unique at %q after %q", c.Code, cs[i-1].Code)
		}
		byCode[c.Code] = c
		if !phoneCodeRe.MatchString(c.PhoneCode) {
			t.Errorf("country %s: bad phone_code %q", c.Code, c.PhoneCode)
		}
		if !currencyRe.MatchString(c.Currency) {
			t.Errorf("country %s: bad currency %q", c.Code, c.Currency)
		}
		if len(c.Name) != len(active) {
			t.Errorf("country %s: names in %d languages, want %d (%v)", c.Code, len(c.Name), len(active), active)
		}
		for _, l := range active {
			if strings.TrimSpace(c.Name[l]) == "" {
				t.Errorf("country %s: no %s name", c.Code, l)
			}
		}
	}
	for _, code := range []string{"XK", "AN", "YU", "EU", "UK"} {
		if _, ok := byCode[code]; ok {
			t.Errorf("%s is not an ISO 3166-1 country code but is listed", code)
		}
	}
	spot := []country{
		{Code: "DE", Name: map[string]string{"en": "Germany", "de": "Deutschland", "fr": "Allemagne", "es": "Alemania", "uk": "Німеччина"}, PhoneCode: "+49", Currency: "EUR"},
		{Code: "UA", Name: map[string]string{"en": "Ukraine", "uk": "Україна"}, PhoneCode: "+380", Currency: "UAH"},
		{Code: "US", Name: map[string]string{"en": "United States"}, PhoneCode: "+1", Currency: "USD"},
		{Code: "GB", Name: map[string]string{"en": "United Kingdom"}, PhoneCode: "+44", Currency: "GBP"},
		{Code: "AS", PhoneCode: "+1", Currency: "USD"},
		{Code: "AQ", Currency: "USD"},
		{Code: "MK", Name: map[string]string{"en": "North Macedonia"}},
	}
	for _, w := range spot {
		c, ok := byCode[w.Code]
		if !ok {
			t.Errorf("country %s missing", w.Code)
			continue
		}
		for l, n := range w.Name {
			if c.Name[l] != n {
				t.Errorf("country %s: %s name %q, want %q", w.Code, l, c.Name[l], n)
			}
		}
		if w.PhoneCode != "" && c.PhoneCode != w.PhoneCode {
			t.Errorf("country %s: phone_code %q, want %q", w.Code, c.PhoneCode, w.PhoneCode)
		}
		if w.Currency != "" && c.Currency != w.Currency {
			t.Errorf("country %s: currency %q, want %q", w.Code, c.Currency, w.Currency)
		}
	}
}
