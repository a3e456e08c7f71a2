package translations

import (
	"encoding/json"
	"testing"
)

// SelectJSON writes, byte for byte, what encoding/json wrote for the same
// answer before it was hand-made: keys sorted, HTML characters escaped,
// repeats dropped, missing keys in the order asked.
func TestSelectJSONMatchesEncodingJSON(t *testing.T) {
	d, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	cases := [][]string{
		{"nav.properties", "common.save", "common.cancel"},
		{"common.save", "common.save", "no.such.key", "<script>&", "ключ", "zz", "aa"},
		{"x"},
	}
	for _, locale := range []string{"en", "de", "uk", "fr"} {
		for _, keys := range cases {
			got, err := d.SelectJSON(locale, keys)
			if err != nil {
				t.Fatal(err)
			}
			found, missing := d.Select(locale, keys)
			want, err := json.Marshal(struct {
				Locale       string            `json:"locale"`
				Translations map[string]string `json:"translations"`
				Missing      []string          `json:"missing"`
			}{locale, found, missing})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s %q:\n got %s\nwant %s", locale, keys, got, want)
			}
		}
	}
}
