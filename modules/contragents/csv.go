package contragents

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxImportRows bounds the data rows of one import (the 1 MiB body limit
// bounds its size).
const MaxImportRows = 10000

// importColumns are the columns an import file may have; the first three
// are required. Any order, names case-insensitive.
var importColumns = []string{"name", "kind", "roles", "email", "phone", "address", "tax_id", "notes"}

// parseCSV reads an import file: a header row, then one contragent per
// row. It returns the normalized inputs, or one message per problem, each
// starting with the line number ("line 3: email: must be ...").
func parseCSV(body []byte) ([]Input, []string) {
	body = bytes.TrimPrefix(body, []byte("\ufeff"))
	if !utf8.Valid(body) {
		return nil, []string{"file: must be UTF-8 text"}
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, []string{"file: is empty; the first line names the columns: " + strings.Join(importColumns, ",")}
	}
	if err != nil {
		return nil, []string{csvError(err)}
	}
	index := map[string]int{}
	var details []string
	for i, h := range header {
		name := strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(importColumns, name) {
			details = append(details, fmt.Sprintf("line 1: unknown column %q; columns are %s", h, strings.Join(importColumns, ",")))
			continue
		}
		if _, dup := index[name]; dup {
			details = append(details, fmt.Sprintf("line 1: column %q is given twice", name))
			continue
		}
		index[name] = i
	}
	for _, req := range importColumns[:3] {
		if _, ok := index[req]; !ok {
			details = append(details, fmt.Sprintf("line 1: column %q is required", req))
		}
	}
	if len(details) > 0 {
		return nil, details
	}
	var rows []Input
	for {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			// A broken quote leaves the rest of the file unreadable.
			return nil, append(details, csvError(err))
		}
		line, _ := r.FieldPos(0)
		if len(rows) == MaxImportRows {
			return nil, append(details, fmt.Sprintf("file: has more than %d rows; split it", MaxImportRows))
		}
		if len(record) != len(header) {
			details = append(details, fmt.Sprintf("line %d: has %d fields, the header %d", line, len(record), len(header)))
			rows = append(rows, Input{})
			continue
		}
		in := rowInput(record, index)
		for _, d := range in.normalize(true) {
			details = append(details, fmt.Sprintf("line %d: %s", line, d))
		}
		rows = append(rows, in)
	}
	if len(rows) == 0 {
		details = append(details, "file: has no rows after the header")
	}
	if len(details) > 0 {
		return nil, details
	}
	return rows, nil
}

// rowInput maps a record onto an Input; empty optional cells stay empty.
func rowInput(record []string, index map[string]int) Input {
	cell := func(name string) *string {
		i, ok := index[name]
		if !ok {
			return nil
		}
		v := record[i]
		return &v
	}
	in := Input{Kind: cell("kind"), Name: cell("name"), Email: cell("email"), Phone: cell("phone"),
		Address: cell("address"), TaxID: cell("tax_id"), Notes: cell("notes")}
	roles := []string{}
	for _, r := range strings.FieldsFunc(*cell("roles"), func(r rune) bool { return r == ';' || r == '|' }) {
		if r = strings.ToLower(strings.TrimSpace(r)); r != "" {
			roles = append(roles, r)
		}
	}
	in.Roles = &roles
	if in.Kind != nil {
		k := strings.ToLower(*in.Kind)
		in.Kind = &k
	}
	return in
}

// csvError words a CSV syntax error with its line.
func csvError(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d: malformed CSV (%v); nothing after it was read", pe.StartLine, pe.Err)
	}
	return "file: " + err.Error()
}
