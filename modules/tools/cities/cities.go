// Package cities answers "where is this city" offline, from an embedded
// extract of GeoNames' cities with at least 1000 inhabitants (CC BY 4.0,
// see data/LICENSE): about 135,000 cities with their Latin and Cyrillic
// names. The table is read on first use (0.7 to 1.1 s on the 2-core
// development machine under load, 27 MB of memory kept), so a service that
// never asks pays nothing for it.
package cities

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	_ "embed"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

//go:embed data/cities.tsv.gz
var table []byte

// Attribution is the notice the data's licence asks answers to carry.
const Attribution = "City data from GeoNames (geonames.org), CC BY 4.0"

// City is one place of the table.
type City struct {
	Name       string
	Country    string // ISO 3166-1 alpha-2
	Admin      string // GeoNames admin1 code (state, region)
	Population int64
	Lat, Lon   float64
	alternates string // '|'-separated
}

// Table is the embedded table as the gen command wrote it (gzip).
func Table() []byte { return table }

// Index finds cities by any of their names.
type Index struct {
	cities []City
	// keys holds, sorted, a 46-bit hash of each folded name above the
	// 18-bit index of its city: 8 bytes a name instead of a map entry's
	// 60 or more. Equal hashes are checked against the names themselves.
	keys []uint64
}

const idxBits = 18

// Default is the embedded table, read on first call.
var Default = sync.OnceValues(func() (*Index, error) { return Read(bytes.NewReader(table)) })

// Read builds an index from a gzip-compressed table in the format the gen
// command writes.
func Read(r io.Reader) (*Index, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	text := string(raw) // one allocation; every field below is a slice of it
	lines := strings.Count(text, "\n")
	ix := &Index{cities: make([]City, 0, lines), keys: make([]uint64, 0, lines+strings.Count(text, "|")+lines/2)}
	var buf, tmp []byte
	var f [7]string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	off := 0
	for sc.Scan() {
		n := len(sc.Bytes())
		line := text[off : off+n]
		off += n + 1
		if !split(line, f[:]) || len(ix.cities) >= 1<<idxBits {
			return nil, &FormatError{Line: len(ix.cities) + 1}
		}
		c := City{Name: f[0], Country: f[1], Admin: f[2], alternates: f[6]}
		var e1, e2, e3 error
		c.Population, e1 = strconv.ParseInt(f[3], 10, 64)
		c.Lat, e2 = strconv.ParseFloat(f[4], 64)
		c.Lon, e3 = strconv.ParseFloat(f[5], 64)
		if e1 != nil || e2 != nil || e3 != nil {
			return nil, &FormatError{Line: len(ix.cities) + 1}
		}
		i := uint64(len(ix.cities))
		ix.cities = append(ix.cities, c)
		buf = appendFold(buf[:0], tmp, c.Name)
		ix.keys = append(ix.keys, hash(buf)<<idxBits|i)
		if c.alternates != "" {
			for a := range strings.SplitSeq(c.alternates, "|") {
				buf = appendFold(buf[:0], tmp, a)
				ix.keys = append(ix.keys, hash(buf)<<idxBits|i)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	slices.Sort(ix.keys)
	return ix, nil
}

// split cuts a line at its tabs into exactly len(f) fields.
func split(line string, f []string) bool {
	for i := range len(f) - 1 {
		j := strings.IndexByte(line, '\t')
		if j < 0 {
			return false
		}
		f[i], line = line[:j], line[j+1:]
	}
	f[len(f)-1] = line
	return !strings.Contains(line, "\t")
}

// FormatError is a table line that cannot be read.
type FormatError struct{ Line int }

func (e *FormatError) Error() string { return "cities: bad table line " + strconv.Itoa(e.Line) }

// Len is the number of cities.
func (ix *Index) Len() int { return len(ix.cities) }

// Find returns the cities called name (in any of their names, any case,
// accents ignored), in country when it is not empty, the likeliest first:
// by population, where a city matched by an alternate name counts a
// quarter of its people, so that "Berlin, US" is Berlin (New Hampshire)
// rather than the larger North Canton, Ohio, once called Berlin.
func (ix *Index) Find(name, country string) []City {
	key := Fold(name)
	if key == "" {
		return nil
	}
	h := hash([]byte(key))
	lo, _ := slices.BinarySearch(ix.keys, h<<idxBits)
	type hit struct {
		c     City
		score int64
	}
	var hits []hit
	for i := lo; i < len(ix.keys) && ix.keys[i]>>idxBits == h; i++ {
		c := ix.cities[ix.keys[i]&(1<<idxBits-1)]
		if country != "" && c.Country != country || slices.ContainsFunc(hits, func(o hit) bool { return o.c == c }) {
			continue
		}
		switch c.named(key) {
		case 1:
			hits = append(hits, hit{c, c.Population * 4})
		case 2:
			hits = append(hits, hit{c, c.Population})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.score, a.score) })
	out := make([]City, len(hits))
	for i, h := range hits {
		out[i] = h.c
	}
	return out
}

// named is 1 when key is the city's name, 2 when one of its alternate
// names, 0 when a hash collision brought it.
func (c City) named(key string) int {
	if Fold(c.Name) == key {
		return 1
	}
	for a := range strings.SplitSeq(c.alternates, "|") {
		if a != "" && Fold(a) == key {
			return 2
		}
	}
	return 0
}

// hash is FNV-1a of the folded name, its top 46 bits.
func hash(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h >> idxBits
}

// Fold is the form names are compared in: lower case, without accents,
// ß as ss, hyphens as spaces, dots and apostrophes dropped, spaces
// collapsed ("Frankfurt-am-Main" = "frankfurt am main", "St. Pölten" =
// "st polten", "Київ" = "киів").
func Fold(s string) string { return string(appendFold(nil, nil, s)) }

// appendFold appends s folded to dst; tmp is scratch space for the
// decomposition. Plain ASCII skips it, which would make reading the table
// several times slower.
func appendFold(dst, tmp []byte, s string) []byte {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	in := s
	if !ascii {
		in = string(norm.NFD.AppendString(tmp[:0], s))
	}
	start := len(dst)
	space := false
	for _, r := range in {
		switch {
		case unicode.Is(unicode.Mn, r), r == '.' || r == '\'' || r == '’' || r == 'ʼ':
			continue
		case r == '-' || r == ',' || unicode.IsSpace(r):
			space = len(dst) > start
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		switch r = unicode.ToLower(r); r {
		case 'ß':
			dst = append(dst, "ss"...)
		case 'ø':
			dst = append(dst, 'o')
		case 'æ':
			dst = append(dst, "ae"...)
		case 'ł':
			dst = append(dst, 'l')
		case 'đ':
			dst = append(dst, 'd')
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	if !ascii {
		// Letters that decomposed and lost no mark (й keeps none, ё
		// neither) are composed again, as the query's are.
		folded := norm.NFC.Append(nil, dst[start:]...)
		dst = append(dst[:start], folded...)
	}
	return dst
}
