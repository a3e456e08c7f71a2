package cities_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/propman/propman/modules/tools/cities"
)

func TestEmbeddedTable(t *testing.T) {
	start := time.Now()
	ix, err := cities.Default()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cities read in %v", ix.Len(), time.Since(start))
	if ix.Len() < 130000 {
		t.Fatalf("only %d cities", ix.Len())
	}
	cases := []struct {
		name, country, want, wantCountry string
		lat, lon                         float64
	}{
		{"Berlin", "", "Berlin", "DE", 52.52, 13.41},
		// Berlin, New Hampshire, not the larger North Canton, Ohio, whose
		// alternate name is Berlin.
		{"berlin", "US", "Berlin", "US", 44.47, -71.19},
		{"München", "", "Munich", "DE", 48.14, 11.58},
		{"Muenchen", "DE", "Munich", "DE", 48.14, 11.58},
		{"Kiew", "", "Kyiv", "UA", 50.45, 30.52},
		{"Київ", "UA", "Kyiv", "UA", 50.45, 30.52},
		{"Львів", "", "Lviv", "UA", 49.84, 24.02},
		{"Frankfurt-am-Main", "", "Frankfurt am Main", "DE", 50.12, 8.68},
		{"PARIS", "", "Paris", "FR", 48.85, 2.35},
		{"Sevilla", "ES", "Sevilla", "ES", 37.38, -5.97},
		{"Genf", "", "Genève", "CH", 46.2, 6.15},
	}
	for _, c := range cases {
		got := ix.Find(c.name, c.country)
		if len(got) == 0 {
			t.Errorf("%q: not found", c.name)
			continue
		}
		g := got[0]
		if g.Name != c.want || g.Country != c.wantCountry || (c.lat != 0 && (math.Abs(g.Lat-c.lat) > 0.05 || math.Abs(g.Lon-c.lon) > 0.05)) {
			t.Errorf("%q: %+v", c.name, g)
		}
	}
	for _, miss := range []string{"", "  ", "Atlantis Under The Sea", "Berlin", "Paris"} {
		country := ""
		if miss == "Berlin" || miss == "Paris" {
			country = "JP"
		}
		if got := ix.Find(miss, country); len(got) != 0 {
			t.Errorf("%q in %q: %v", miss, country, got)
		}
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"St. Pölten":        "st polten",
		"Frankfurt-am-Main": "frankfurt am main",
		"  Großräschen ":    "grossraschen",
		"L'Aquila":          "laquila",
		"Київ":              "киів",
	} {
		if got := cities.Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBrokenTable(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("Berlin\tDE\t16\t3426354\t52.52437\t13.41053\t\nBroken\tDE\n"))
	zw.Close()
	_, err := cities.Read(&buf)
	var fe *cities.FormatError
	if !errors.As(err, &fe) || fe.Line != 2 {
		t.Fatalf("%v", err)
	}
	if _, err := cities.Read(bytes.NewReader([]byte("not gzip"))); err == nil {
		t.Fatal("no error for a table that is not gzip")
	}
}

// BenchmarkRead is the first offline lookup's cost: reading the embedded
// table (see -benchmem for the memory it keeps).
func BenchmarkRead(b *testing.B) {
	for b.Loop() {
		if _, err := cities.Read(bytes.NewReader(cities.Table())); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFind(b *testing.B) {
	ix, err := cities.Default()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if len(ix.Find("München", "DE")) == 0 {
			b.Fatal("not found")
		}
	}
}
