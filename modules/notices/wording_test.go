package notices

import (
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Every language says every notice, with the verbs English fills in: the
// catalogue's notices.* texts use each placeholder wordingOf fills.
func TestEveryLanguageSaysEverything(t *testing.T) {
	en := texts(wordingOf("en"))
	for _, locale := range []string{"en", "de", "fr", "es", "uk"} {
		w := wordingOf(locale)
		for field, s := range texts(w) {
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: %s is empty", locale, field)
			}
			if got, want := verbs(s), verbs(en[field]); !reflect.DeepEqual(got, want) || strings.Count(strings.ReplaceAll(s, "%%", ""), "%") != len(want) {
				t.Errorf("%s: %s fills %v, English %v: %q", locale, field, got, want, s)
			}
		}
	}
	if wordingOf("pt").Greeting != wordingOf("en").Greeting || wordingOf("de").Greeting == wordingOf("en").Greeting {
		t.Error("a language without a wording is not written in English")
	}
}

// verb is a %s, or an indexed %[n]s (a language that orders the values
// otherwise).
var verb = regexp.MustCompile(`%(?:\[(\d)\])?s`)

// verbs are the arguments s fills, by number, sorted: every language
// must use each of English's once.
func verbs(s string) []int {
	var out []int
	next := 1
	for _, m := range verb.FindAllStringSubmatch(s, -1) {
		n := next
		if m[1] != "" {
			n = int(m[1][0] - '0')
		}
		out = append(out, n)
		next = n + 1
	}
	sort.Ints(out)
	return out
}

// texts are w's strings by field name (the reminder's by step).
func texts(w wording) map[string]string {
	out := map[string]string{}
	v := reflect.ValueOf(w)
	for i := range v.NumField() {
		f := v.Field(i)
		name := v.Type().Field(i).Name
		if f.Kind() == reflect.Array {
			for j := range f.Len() {
				out[name+string(rune('1'+j))] = f.Index(j).String()
			}
			continue
		}
		out[name] = f.String()
	}
	return out
}
