package agreements

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/propman/propman/modules/agreements/catalog"
	"github.com/propman/propman/modules/reference"
)

// Limits of an import file. They keep a mistaken file (a database dump, a
// novel in a description) from reaching the catalogue every client loads.
const (
	MaxImportBytes    = 4 << 20
	MaxImportBlocks   = 1000
	MaxNameLength     = 200
	MaxDescLength     = 2000
	MaxImageURLLength = 2048
	MaxSortOrder      = 1_000_000
	// maxProblems caps the list an operator gets for a broken file.
	maxProblems = 50
)

var (
	codePattern    = regexp.MustCompile(`^[A-Z][A-Z0-9_]{1,63}$`)
	countryPattern = regexp.MustCompile(`^[A-Z]{2}$`)
)

// ImportError lists every problem found in an import file; nothing was
// imported.
type ImportError struct {
	Problems []string
}

func (e *ImportError) Error() string {
	return fmt.Sprintf("%d problem(s), nothing imported:\n  - %s", len(e.Problems), strings.Join(e.Problems, "\n  - "))
}

// problems collects what is wrong with an import, up to maxProblems.
type problems struct{ list []string }

func (p *problems) add(format string, args ...any) {
	if len(p.list) < maxProblems {
		p.list = append(p.list, fmt.Sprintf(format, args...))
	} else if len(p.list) == maxProblems {
		p.list = append(p.list, "... more problems not shown")
	}
}

func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	return &ImportError{Problems: p.list}
}

// directory is what the rules need of *reference.Directory.
type directory interface {
	Country(code string) (reference.Country, bool)
	Languages() []reference.Language
}

// parseImport decodes and checks an operator's file: a JSON array of blocks
// in the catalogue format (modules/agreements/catalog). Every problem is
// reported with the block's position (from 1), its code and the field.
func parseImport(data []byte, dir directory) ([]catalog.Block, error) {
	var p problems
	if len(data) > MaxImportBytes {
		p.add("the file has more than %d bytes", MaxImportBytes)
		return nil, p.err()
	}
	if len(bytes.TrimSpace(data)) == 0 {
		p.add("the file is empty")
		return nil, p.err()
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		p.add("not a JSON array of blocks: %s", describeJSONError(data, err))
		return nil, p.err()
	}
	switch {
	case len(raws) == 0:
		p.add("the array holds no blocks")
	case len(raws) > MaxImportBlocks:
		p.add("%d blocks; at most %d per file", len(raws), MaxImportBlocks)
	}
	if len(p.list) > 0 {
		return nil, p.err()
	}
	allowedLocales := slices.Clone(catalog.Locales)
	for _, l := range dir.Languages() {
		allowedLocales = append(allowedLocales, l.Code)
	}
	seen := map[string]int{}
	blocks := make([]catalog.Block, 0, len(raws))
	for i, raw := range raws {
		at := fmt.Sprintf("block %d", i+1)
		var b catalog.Block
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&b); err != nil {
			p.add("%s: %s", at, describeJSONError(raw, err))
			continue
		}
		if b.Code != "" {
			at = fmt.Sprintf("block %d (%s)", i+1, clip(b.Code, 64))
		}
		checkBlock(&p, at, &b, dir, allowedLocales)
		if first, dup := seen[b.Code]; dup && b.Code != "" {
			p.add("%s: code: also used by block %d", at, first)
		} else {
			seen[b.Code] = i + 1
		}
		blocks = append(blocks, b)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return blocks, nil
}

func checkBlock(p *problems, at string, b *catalog.Block, dir directory, allowedLocales []string) {
	if !codePattern.MatchString(b.Code) {
		p.add("%s: code %q: use 2 to 64 upper-case letters, digits and _, starting with a letter", at, clip(b.Code, 64))
	}
	if !slices.Contains(catalog.DataTypes, b.DataType) {
		p.add("%s: data_type %q: use one of %s", at, clip(b.DataType, 32), strings.Join(catalog.DataTypes, ", "))
	}
	if b.Country != nil {
		c := *b.Country
		if !countryPattern.MatchString(c) {
			p.add("%s: country %q: use an upper-case two-letter ISO 3166-1 code such as DE, or null", at, clip(c, 32))
		} else if _, ok := dir.Country(c); !ok {
			p.add("%s: country %q is not an active country", at, c)
		}
	}
	checkText(p, at, "name", b.Name, MaxNameLength, allowedLocales)
	checkText(p, at, "description", b.Description, MaxDescLength, allowedLocales)
	if b.ImageURL != nil {
		u := *b.ImageURL
		parsed, err := url.Parse(u)
		switch {
		case len(u) > MaxImageURLLength:
			p.add("%s: image_url: longer than %d characters", at, MaxImageURLLength)
		case err != nil || (parsed.Scheme != "https" && parsed.Scheme != "http") || parsed.Host == "":
			p.add("%s: image_url %q: use an absolute http(s) URL, or null", at, clip(u, 64))
		}
	}
	if b.SortOrder < 0 || b.SortOrder > MaxSortOrder {
		p.add("%s: sort_order %d: use 0 to %d", at, b.SortOrder, MaxSortOrder)
	}
}

// checkText checks a localized text map: every catalogue locale present,
// no unknown locale, no blank or overlong text. Texts are trimmed in place.
func checkText(p *problems, at, field string, m map[string]string, maxLen int, allowed []string) {
	var missing []string
	for _, l := range catalog.Locales {
		if _, ok := m[l]; !ok {
			missing = append(missing, l)
		}
	}
	if len(missing) > 0 {
		p.add("%s: %s: no text for %s (every block needs %s)", at, field, strings.Join(missing, ", "), strings.Join(catalog.Locales, ", "))
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			p.add("%s: %s: %q is not an active language code", at, field, clip(k, 16))
			continue
		}
		v := strings.TrimSpace(m[k])
		m[k] = v
		switch n := utf8.RuneCountInString(v); {
		case n == 0:
			p.add("%s: %s.%s: empty", at, field, k)
		case n > maxLen:
			p.add("%s: %s.%s: %d characters; at most %d", at, field, k, n, maxLen)
		}
	}
}

// describeJSONError words a decoding error with its line and column.
func describeJSONError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// Offset counts the offending byte.
		line, col := position(data, syn.Offset-1)
		return fmt.Sprintf("line %d, column %d: %s", line, col, syn.Error())
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return fmt.Sprintf("a JSON %s where an array of objects is needed", typ.Value)
		}
		return fmt.Sprintf("%s: a JSON %s where a %s is needed", field, typ.Value, jsonKind(typ.Type.Kind().String()))
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int64":
		return "whole number"
	case "string":
		return "string"
	case "map":
		return "object of locale: text"
	case "ptr":
		return "string or null"
	}
	return goKind
}

// position gives the line and column (from 1) of the byte at offset.
func position(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// clip bounds a value echoed back in a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
