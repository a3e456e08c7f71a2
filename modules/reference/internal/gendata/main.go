// Command gendata generates the reference data files countries.json and
// languages.json of modules/reference/data from well-kept Go packages, so that
// the data is reproducible and nobody types it by hand.
//
// Run it from the repository root:
//
//	go run ./modules/reference/internal/gendata
//
// or through `go generate ./modules/reference/data`.
//
// Sources:
//
//   - The ISO 3166-1 country list: github.com/biter777/countries (All), keeping
//     the codes that golang.org/x/text knows as current, non-private-use countries
//     with a CLDR name (this drops the withdrawn AN and YU and the user-assigned
//     XK). The result must be exactly 249 countries.
//   - Country names in every active language: golang.org/x/text/language/display
//     (CLDR). A missing localized name falls back to English. The CLDR data
//     of x/text predates two renamings (MK, SZ): nameOverrides corrects them.
//   - Calling codes: github.com/nyaruka/phonenumbers (libphonenumber metadata),
//     the ITU-T E.164 country calling code, written "+" and digits only (so the
//     NANP territories get "+1": their area code belongs to the national number).
//     For the regions libphonenumber has no metadata for (AQ, BV, GS, HM, PN,
//     TF, UM), the first calling code of biter777/countries, reduced to digits,
//     except TF (phoneFallback).
//   - Currencies: github.com/biter777/countries, with the documented
//     corrections of currencyCorrections, then golang.org/x/text/currency, then
//     USD when no source has one (only Antarctica). Run with -v to see where
//     the sources disagree.
//   - Languages: the ISO 639-1 code list of github.com/emvi/iso-639-1 (184
//     codes). English and native names come from x/text (CLDR) where CLDR names
//     that very code, else from emvi/iso-639-1, else the English name. Native
//     names are capitalized, as they stand alone in a language menu.
//   - Active languages: the locales that have a dictionary in
//     modules/translations/locales (en, de, fr, es, uk).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/biter777/countries"
	iso6391 "github.com/emvi/iso-639-1"
	"github.com/nyaruka/phonenumbers"
	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/propman/propman/modules/translations/locales"
)

// expectedCountries is the number of ISO 3166-1 officially assigned codes.
const expectedCountries = 249

// currencyFallback is used when no package gives a currency for a region
// (Antarctica: neither biter777/countries nor x/text has one).
const currencyFallback = "USD"

// currencyCorrections replaces a currency that biter777/countries gives but that
// is not the main legal tender of the region today. Each entry says why.
var currencyCorrections = map[string]string{
	"BG": "EUR", // Bulgaria adopted the euro on 2026-01-01 (was BGN).
	"CU": "CUP", // the convertible peso CUC was withdrawn in 2021.
	"CW": "XCG", // the Caribbean guilder replaced ANG on 2025-03-31.
	"SV": "USD", // the US dollar has been the currency in use since 2001 (SVC is dormant).
	"SX": "XCG", // the Caribbean guilder replaced ANG on 2025-03-31.
	"UY": "UYU", // biter777 gives UYI, an indexed unit of account, not the peso.
	"ZW": "ZWG", // Zimbabwe Gold replaced ZWL in 2024.
}

// phoneFallback gives the calling code of a region that libphonenumber has no
// metadata for and where biter777/countries is wrong.
var phoneFallback = map[string]string{
	"TF": "+262", // French Southern Territories use the Réunion numbering plan; biter777 says +1.
}

// nameOverrides replaces CLDR names that x/text ships from before a country's
// official renaming (North Macedonia 2019, Eswatini 2018), in every language.
var nameOverrides = map[string]map[string]string{
	"MK": {"en": "North Macedonia", "de": "Nordmazedonien", "fr": "Macédoine du Nord", "es": "Macedonia del Norte", "uk": "Північна Македонія"},
	"SZ": {"en": "Eswatini", "de": "Eswatini", "fr": "Eswatini", "es": "Esuatini", "uk": "Есватіні"},
}

// Country is one record of countries.json.
type Country struct {
	Code      string            `json:"code"`
	Name      map[string]string `json:"name"`
	PhoneCode string            `json:"phone_code"`
	Currency  string            `json:"currency"`
}

// Language is one record of languages.json.
type Language struct {
	Code       string `json:"code"`
	Name       string `json:"name"`
	NativeName string `json:"native_name"`
	Active     bool   `json:"active"`
}

var currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)

func main() {
	out := flag.String("out", "modules/reference/data", "directory to write countries.json and languages.json to")
	verbose := flag.Bool("v", false, "report where the sources disagree")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gendata: ")

	active, err := activeLanguages()
	if err != nil {
		log.Fatal(err)
	}
	langs, err := buildLanguages(active)
	if err != nil {
		log.Fatal(err)
	}
	ctrs, err := buildCountries(active, *verbose)
	if err != nil {
		log.Fatal(err)
	}
	if err := writeJSON(filepath.Join(*out, "countries.json"), ctrs); err != nil {
		log.Fatal(err)
	}
	if err := writeJSON(filepath.Join(*out, "languages.json"), langs); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %d countries and %d languages (%d active: %s) to %s",
		len(ctrs), len(langs), len(active), strings.Join(active, ", "), *out)
}

// activeLanguages lists the locales that have a translation dictionary.
func activeLanguages() ([]string, error) {
	files, err := fs.Glob(locales.FS, "*.json")
	if err != nil {
		return nil, err
	}
	var codes []string
	for _, f := range files {
		codes = append(codes, strings.TrimSuffix(f, ".json"))
	}
	if !slices.Contains(codes, "en") {
		return nil, fmt.Errorf("no en.json among the locale dictionaries %v", files)
	}
	sort.Strings(codes)
	return codes, nil
}

func buildCountries(active []string, verbose bool) ([]Country, error) {
	namers := map[string]display.Namer{}
	for _, code := range active {
		tag, err := language.Parse(code)
		if err != nil {
			return nil, fmt.Errorf("active language %q: %w", code, err)
		}
		namers[code] = display.Regions(tag)
	}
	var list []Country
	seen := map[string]bool{}
	for _, c := range countries.All() {
		code := c.Alpha2()
		region, err := language.ParseRegion(code)
		if err != nil || !region.IsCountry() || region.IsPrivateUse() || region.Canonicalize() != region {
			continue
		}
		english := namers["en"].Name(region)
		if english == "" {
			// CLDR names every currently assigned code; a code without a name
			// is a withdrawn one (AN, YU).
			continue
		}
		if seen[code] {
			return nil, fmt.Errorf("country %s listed twice", code)
		}
		seen[code] = true

		if o, ok := nameOverrides[code]["en"]; ok {
			english = o
		}
		names := map[string]string{}
		for _, lang := range active {
			n, ok := nameOverrides[code][lang]
			if !ok {
				n = namers[lang].Name(region)
			}
			if n == "" {
				if verbose {
					log.Printf("%s: no %s name, using English %q", code, lang, english)
				}
				n = english
			}
			names[lang] = n
		}

		phone, err := phoneCode(c, code)
		if err != nil {
			return nil, err
		}
		cur := currencyOf(c, code, region, verbose)
		if !currencyRe.MatchString(cur) {
			return nil, fmt.Errorf("country %s: bad currency %q", code, cur)
		}
		list = append(list, Country{Code: code, Name: names, PhoneCode: phone, Currency: cur})
	}
	if len(list) != expectedCountries {
		return nil, fmt.Errorf("got %d countries, want %d", len(list), expectedCountries)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Code < list[j].Code })
	return list, nil
}

// phoneCode gives the E.164 country calling code of a region as "+" and digits.
func phoneCode(c countries.CountryCode, code string) (string, error) {
	if n := phonenumbers.GetCountryCodeForRegion(code); n > 0 {
		return fmt.Sprintf("+%d", n), nil
	}
	if p, ok := phoneFallback[code]; ok {
		return p, nil
	}
	for _, cc := range c.CallCodes() {
		digits := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, cc.String())
		if digits != "" && digits[0] != '0' && len(digits) <= 3 {
			return "+" + digits, nil
		}
	}
	return "", fmt.Errorf("country %s: no calling code (biter777 gives %v)", code, c.CallCodes())
}

// currencyOf gives the main legal tender of a region.
func currencyOf(c countries.CountryCode, code string, region language.Region, verbose bool) string {
	cur := ""
	if cc := c.Currency(); cc.IsValid() {
		cur = cc.Alpha()
	}
	if fix, ok := currencyCorrections[code]; ok {
		if verbose {
			log.Printf("%s: currency %q corrected to %s", code, cur, fix)
		}
		cur = fix
	}
	var xcur string
	if u, ok := currency.FromRegion(region); ok {
		xcur = u.String()
	}
	if !currencyRe.MatchString(cur) {
		cur = xcur
	}
	if cur == "" {
		if verbose {
			log.Printf("%s: no currency in any source, using %s", code, currencyFallback)
		}
		cur = currencyFallback
	}
	if verbose && xcur != "" && xcur != cur {
		log.Printf("%s: currency %s (x/text/currency says %s)", code, cur, xcur)
	}
	return cur
}

func buildLanguages(active []string) ([]Language, error) {
	english := display.English.Languages()
	// CLDR gives some ISO 639-1 codes the name of another language (no is
	// shown as Norwegian Bokmål like nb, tw as Akan like ak, tl as Filipino):
	// for those, the names of emvi/iso-639-1 are the right ones.
	byName := map[string]int{}
	for _, code := range iso6391.Codes {
		if b, err := language.ParseBase(code); err == nil {
			byName[english.Name(b)]++
		}
	}
	var list []Language
	seen := map[string]bool{}
	for _, l := range iso6391.Languages {
		code := l.Code
		if len(code) != 2 || seen[code] {
			return nil, fmt.Errorf("bad or repeated ISO 639-1 code %q", code)
		}
		seen[code] = true
		name, native := "", ""
		base, err := language.ParseBase(code)
		if err == nil && base.String() == code {
			tagBase, _ := language.Make(code).Base()
			cldrName := english.Name(base)
			if tagBase == base && cldrName != "" && byName[cldrName] == 1 {
				name = cldrName
				native = display.Self.Name(base)
			}
		}
		if name == "" {
			name = strings.TrimSpace(l.Name)
		}
		if native == "" {
			native = cleanNative(l.NativeName)
		}
		if native == "" {
			native = name
		}
		if name == "" {
			return nil, fmt.Errorf("language %s: no name", code)
		}
		list = append(list, Language{
			Code:       code,
			Name:       name,
			NativeName: capitalize(native),
			Active:     slices.Contains(active, code),
		})
	}
	for _, a := range active {
		if !seen[a] {
			return nil, fmt.Errorf("active language %q is not an ISO 639-1 code", a)
		}
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Code < list[j].Code })
	return list, nil
}

// cleanNative keeps the first of several comma-separated native names and drops
// the directional marks some of them carry.
func cleanNative(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\u200e' || r == '\u200f' {
			return -1
		}
		return r
	}, s)
	if i := strings.Index(s, ","); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// capitalize title-cases the first letter, as a name stands alone in a menu
// ("français" becomes "Français"). Title case, not upper case, so that scripts
// such as Georgian keep their ordinary letters.
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToTitle(r)) + s[n:]
}

func writeJSON(path string, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
