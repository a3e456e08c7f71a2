package agreements

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/propman/propman/modules/agreements/catalog"
	"github.com/propman/propman/modules/reference"
)

// fakeDirectory knows the given countries (DE and FR when none) and the
// five catalogue languages.
type fakeDirectory struct{ countries []string }

func (d fakeDirectory) Country(code string) (reference.Country, bool) {
	known := d.countries
	if known == nil {
		known = []string{"DE", "FR"}
	}
	if slices.Contains(known, code) {
		return reference.Country{Code: code, Name: map[string]string{"en": code}}, true
	}
	return reference.Country{}, false
}

func (fakeDirectory) Languages() []reference.Language {
	var ls []reference.Language
	for _, l := range catalog.Locales {
		ls = append(ls, reference.Language{Code: l})
	}
	return ls
}

// FuzzParseImport: any input is either refused with at least one problem or
// gives blocks that the catalogue's own validator accepts, within the limits.
func FuzzParseImport(f *testing.F) {
	example, err := os.ReadFile(filepath.Join("catalog", "example-import.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	f.Add([]byte(`[{"code":"AB","data_type":"int","country":"ZZ","name":{},"description":{}}]`))
	f.Add([]byte(`[{"code":"AB","data_type":"int","sort_order":-1}]`))
	f.Add([]byte("[\n{\"code\": \"X\",\n}"))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		blocks, err := parseImport(data, fakeDirectory{})
		if err != nil {
			var ie *ImportError
			if !errors.As(err, &ie) || len(ie.Problems) == 0 || len(ie.Problems) > maxProblems+1 {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if len(blocks) == 0 || len(blocks) > MaxImportBlocks {
			t.Fatalf("%d blocks accepted", len(blocks))
		}
		if err := catalog.Validate(blocks); err != nil {
			t.Fatalf("accepted blocks the catalogue refuses: %v", err)
		}
		for _, b := range blocks {
			if b.SortOrder < 0 || b.SortOrder > MaxSortOrder {
				t.Fatalf("%s: sort_order %d", b.Code, b.SortOrder)
			}
			for _, v := range b.Name {
				if v != strings.TrimSpace(v) || v == "" {
					t.Fatalf("%s: name %q", b.Code, v)
				}
			}
		}
	})
}

// The shipped catalogue meets the rules operators' files are held to.
func TestShippedCatalogueMeetsImportRules(t *testing.T) {
	blocks, err := parseImport(catalog.Blocks, fakeDirectory{countries: []string{"DE", "FR", "ES", "UA"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) < 40 {
		t.Errorf("%d blocks", len(blocks))
	}
}
