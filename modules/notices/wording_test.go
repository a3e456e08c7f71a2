package notices

import (
	"reflect"
	"strings"
	"testing"
)

// Every language says every notice, with the verbs English fills in.
func TestEveryLanguageSaysEverything(t *testing.T) {
	en := texts(wordings["en"])
	for _, locale := range []string{"en", "de", "fr", "es", "uk"} {
		w, ok := wordings[locale]
		if !ok {
			t.Fatalf("no wording in %s", locale)
		}
		for field, s := range texts(w) {
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: %s is empty", locale, field)
			}
			if got, want := strings.Count(s, "%s"), strings.Count(en[field], "%s"); got != want || strings.Count(s, "%") != want {
				t.Errorf("%s: %s has %d verbs, English %d: %q", locale, field, got, want, s)
			}
		}
	}
	if wordingOf("pt").Greeting != wordings["en"].Greeting {
		t.Error("a language without a wording is not written in English")
	}
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
