package buildings

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/propman/propman/platform/validate"
)

// MaxImportRows bounds the units of one import (the http.bodylimit bounds
// its size): more than any building has.
const MaxImportRows = 2000

// The columns of a unit import, and the header names each is known by in
// English, German and French (compared without case, accents kept or
// dropped, spaces, dashes and dots as underscores).
const (
	colProperty    = "property"
	colLivingArea  = "living_area"
	colRooms       = "rooms"
	colFloor       = "floor"
	colShare       = "share"
	colHeatingType = "heating_type"
)

var importHeaders = map[string][]string{
	colProperty: {"property", "property_id", "unit", "name", "einheit", "wohnung", "objekt", "wohnungsnummer",
		"lot", "logement", "bien", "numero_de_lot"},
	colLivingArea: {"living_area", "area", "wohnflache", "wohnflaeche", "flache", "surface", "surface_habitable"},
	colRooms:      {"rooms", "zimmer", "raume", "pieces", "nombre_de_pieces"},
	colFloor:      {"floor", "etage", "geschoss", "stockwerk", "niveau"},
	colShare: {"share", "mea", "miteigentumsanteil", "miteigentumsanteile", "tantiemes", "tantieme",
		"quote_part", "quote_parts"},
	colHeatingType: {"heating_type", "heating", "heizung", "heizungsart", "chauffage", "type_de_chauffage"},
}

// headerKey folds a header cell to the form importHeaders lists.
func headerKey(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	r := strings.NewReplacer("ä", "a", "ö", "o", "ü", "u", "ß", "ss", "é", "e", "è", "e", "ê", "e", "à", "a", "ç", "c",
		"ô", "o", "î", "i", " ", "_", "-", "_", ".", "", "(", "", ")", "", "²", "2", "[", "", "]", "")
	h = strings.Trim(r.Replace(h), "_")
	for _, unit := range []string{"_m2", "_qm", "_in"} {
		h = strings.TrimSuffix(h, unit)
	}
	return h
}

func columnOf(h string) (string, bool) {
	k := headerKey(h)
	for col, names := range importHeaders {
		if slices.Contains(names, k) {
			return col, true
		}
	}
	return "", false
}

var areaPattern = regexp.MustCompile(`^[0-9]{1,6}(\.[0-9]{1,2})?$`)

// importRow is one line of an import: the property named, and each other
// cell as written (nil: no such column or an empty cell, left as it is).
type importRow struct {
	Line        int
	Property    string
	LivingArea  json.RawMessage
	Rooms       *int64
	Floor       *int64
	Share       *Share
	HeatingType *string
}

// parseUnitsCSV reads a unit import: a header line naming the columns
// (the property column required), then one unit per line. Comma or
// semicolon separated (the first line decides), decimals with a point or
// a comma. It returns the rows, or one message per problem, each naming
// its line and column ("line 3: living_area: ...").
func parseUnitsCSV(body []byte) ([]importRow, []string) {
	body = bytes.TrimPrefix(body, []byte("\ufeff"))
	if !utf8.Valid(body) {
		return nil, []string{"file: must be UTF-8 text"}
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1
	first, _, _ := bytes.Cut(body, []byte("\n"))
	if bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		r.Comma = ';'
	}
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, []string{"file: is empty; the first line names the columns, e.g. property,living_area,rooms,floor,share,heating_type"}
	}
	if err != nil {
		return nil, []string{unitsCSVError(err)}
	}
	index := map[string]int{}
	var details []string
	for i, h := range header {
		col, ok := columnOf(h)
		if !ok {
			details = append(details, fmt.Sprintf("line 1: unknown column %q; columns are property, living_area, rooms, floor, share, heating_type (or their German or French names)", h))
			continue
		}
		if _, dup := index[col]; dup {
			details = append(details, fmt.Sprintf("line 1: column %q is given twice", col))
			continue
		}
		index[col] = i
	}
	if _, ok := index[colProperty]; !ok && len(details) == 0 {
		details = append(details, "line 1: column \"property\" (the property's id or name) is required")
	}
	if len(details) > 0 {
		return nil, details
	}
	var rows []importRow
	for {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, append(details, unitsCSVError(err))
		}
		line, _ := r.FieldPos(0)
		if len(rows) == MaxImportRows {
			return nil, append(details, fmt.Sprintf("file: has more than %d rows; split it", MaxImportRows))
		}
		if len(record) != len(header) {
			details = append(details, fmt.Sprintf("line %d: has %d fields, the header %d", line, len(record), len(header)))
			continue
		}
		row, problems := parseUnitRow(line, record, index)
		details = append(details, problems...)
		rows = append(rows, row)
	}
	if len(rows) == 0 && len(details) == 0 {
		details = append(details, "file: has no rows after the header")
	}
	if len(details) > 0 {
		return nil, details
	}
	return rows, nil
}

func parseUnitRow(line int, record []string, index map[string]int) (importRow, []string) {
	row := importRow{Line: line}
	var details []string
	bad := func(col, msg string) { details = append(details, fmt.Sprintf("line %d: %s: %s", line, col, msg)) }
	cell := func(col string) (string, bool) {
		i, ok := index[col]
		if !ok {
			return "", false
		}
		v := strings.TrimSpace(record[i])
		if msg := validate.Text(v, false); msg != "" {
			bad(col, msg)
			return "", false
		}
		return v, v != ""
	}
	if v, ok := cell(colProperty); !ok {
		if len(details) == 0 {
			bad(colProperty, "is required (the property's id or name)")
		}
	} else if len(v) > 200 {
		bad(colProperty, "must be at most 200 characters")
	} else {
		row.Property = v
	}
	if v, ok := cell(colLivingArea); ok {
		v = strings.Replace(v, ",", ".", 1)
		if v = strings.TrimLeft(v, "0"); v == "" || v[0] == '.' {
			v = "0" + v
		}
		if !areaPattern.MatchString(v) || strings.Trim(v, "0.") == "" {
			bad(colLivingArea, "must be a number of square metres above 0 with at most 2 decimals, e.g. 62.5 or 62,5")
		} else {
			row.LivingArea = json.RawMessage(v)
		}
	}
	integer := func(col string, lo, hi int64) *int64 {
		v, ok := cell(col)
		if !ok {
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < lo || n > hi {
			bad(col, fmt.Sprintf("must be a whole number from %d to %d", lo, hi))
			return nil
		}
		return &n
	}
	row.Rooms = integer(colRooms, 0, 1000)
	row.Floor = integer(colFloor, -20, 300)
	if v, ok := cell(colShare); ok {
		var s Share
		if err := s.UnmarshalJSON([]byte(strings.Replace(v, ",", ".", 1))); err != nil {
			bad(colShare, "must be a non-negative number with at most 4 decimals")
		} else {
			row.Share = &s
		}
	}
	if v, ok := cell(colHeatingType); ok {
		v = strings.ToLower(v)
		if !slices.Contains(HeatingTypes, v) {
			bad(colHeatingType, "must be one of "+strings.Join(HeatingTypes, ", "))
		} else {
			row.HeatingType = &v
		}
	}
	return row, details
}

// unitsCSVError words a CSV syntax error with its line.
func unitsCSVError(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d: malformed CSV (%v); nothing after it was read", pe.StartLine, pe.Err)
	}
	return "file: " + err.Error()
}
