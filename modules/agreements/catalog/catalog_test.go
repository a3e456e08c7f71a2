package catalog

import (
	"os"
	"strings"
	"testing"
)

func TestCatalogueLoads(t *testing.T) {
	bs, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	generic := 0
	genericTypes := map[string]bool{}
	countries := map[string]int{}
	for _, b := range bs {
		if b.Country == nil {
			generic++
			genericTypes[b.DataType] = true
			if b.SortOrder < 10 || b.SortOrder >= 1000 || b.SortOrder%10 != 0 {
				t.Errorf("%s: generic sort_order %d, want a multiple of 10 below 1000", b.Code, b.SortOrder)
			}
		} else {
			countries[*b.Country]++
			if b.SortOrder < 1000 {
				t.Errorf("%s: country sort_order %d, want >= 1000", b.Code, b.SortOrder)
			}
			if !strings.HasPrefix(b.Code, *b.Country+"_") {
				t.Errorf("%s: country block code should start with %s_", b.Code, *b.Country)
			}
		}
		if b.ImageURL != nil {
			t.Errorf("%s: image_url should be null", b.Code)
		}
		for _, l := range Locales {
			if strings.TrimSpace(b.Name[l]) != b.Name[l] || strings.TrimSpace(b.Description[l]) != b.Description[l] {
				t.Errorf("%s/%s: untrimmed text", b.Code, l)
			}
		}
		if len(b.Name) != len(Locales) || len(b.Description) != len(Locales) {
			t.Errorf("%s: unexpected locale keys", b.Code)
		}
	}
	if generic < 14 {
		t.Errorf("%d generic blocks, want at least 14", generic)
	}
	for _, d := range DataTypes {
		if !genericTypes[d] {
			t.Errorf("no generic block of type %s", d)
		}
	}
	if len(countries) < 2 {
		t.Errorf("blocks for %d countries, want at least 2", len(countries))
	}
	for _, c := range []string{"DE", "FR"} {
		if countries[c] == 0 {
			t.Errorf("no blocks for %s", c)
		}
	}
	t.Logf("%d blocks: %d generic, per country %v", len(bs), generic, countries)
}

func TestValidateRejects(t *testing.T) {
	de := "DE"
	bad := "Germany"
	names := map[string]string{"en": "x", "de": "x", "fr": "x", "es": "x", "uk": "x"}
	partial := map[string]string{"en": "x", "de": "x", "fr": "x", "es": "x"}
	ok := Block{Code: "SOME_CODE", DataType: "int", Name: names, Description: names}
	if err := Validate([]Block{ok}); err != nil {
		t.Fatalf("valid block rejected: %v", err)
	}
	cases := map[string][]Block{
		"lower-case code": {{Code: "some_code", DataType: "int", Name: names, Description: names}},
		"one-letter code": {{Code: "A", DataType: "int", Name: names, Description: names}},
		"bad type":        {{Code: "X1", DataType: "string", Name: names, Description: names}},
		"bad country":     {{Code: "X1", DataType: "int", Country: &bad, Name: names, Description: names}},
		"missing locale":  {{Code: "X1", DataType: "int", Country: &de, Name: partial, Description: names}},
		"duplicate":       {ok, ok},
	}
	for name, bs := range cases {
		if err := Validate(bs); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := Parse([]byte(`[{"code":"X1","data_type":"int","extra":1}]`)); err == nil {
		t.Error("unknown field accepted")
	}
}

func TestExampleImport(t *testing.T) {
	data, err := os.ReadFile("example-import.json")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) != 2 {
		t.Fatalf("example has %d blocks, want 2", len(ex))
	}
	bs, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, b := range bs {
		codes[b.Code] = true
	}
	for _, b := range ex {
		if codes[b.Code] {
			t.Errorf("example code %s is already in the catalogue", b.Code)
		}
	}
}
