package counters

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/propman/propman/platform/period"
)

// MaxImportRows bounds the readings of one import (the 1 MiB body limit
// bounds its size; 10,000 lines are about 220 KB).
const MaxImportRows = 10000

// parseCSV reads an import file: an optional header line "read_on,value",
// then one reading per line. It returns the readings with the line number
// of each, or one message per problem, each starting with its line number.
func parseCSV(body []byte) ([]ReadingInput, []int, []string) {
	body = bytes.TrimPrefix(body, []byte("\ufeff"))
	if !utf8.Valid(body) {
		return nil, nil, []string{"file: must be UTF-8 text"}
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	var (
		inputs  []ReadingInput
		lines   []int
		details []string
		first   = true
	)
	for {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, nil, append(details, fmt.Sprintf("line %d: malformed CSV (%v); nothing after it was read", pe.StartLine, pe.Err))
			}
			return nil, nil, append(details, "file: "+err.Error())
		}
		line, _ := r.FieldPos(0)
		if first {
			first = false
			if strings.EqualFold(strings.TrimSpace(record[0]), "read_on") {
				if len(record) != 2 || !strings.EqualFold(strings.TrimSpace(record[1]), "value") {
					details = append(details, fmt.Sprintf("line %d: the header must be read_on,value", line))
				}
				continue
			}
		}
		if len(inputs) == MaxImportRows {
			return nil, nil, append(details, fmt.Sprintf("file: has more than %d readings; split it", MaxImportRows))
		}
		if len(record) != 2 {
			details = append(details, fmt.Sprintf("line %d: has %d fields; a line is read_on,value", line, len(record)))
			inputs, lines = append(inputs, ReadingInput{}), append(lines, line)
			continue
		}
		var in ReadingInput
		if d, err := period.ParseDate(strings.TrimSpace(record[0])); err != nil {
			details = append(details, fmt.Sprintf("line %d: read_on: %v", line, err))
		} else {
			in.ReadOn = d
		}
		if v, err := parseFixed([]byte(strings.TrimSpace(record[1])), ValueDecimals, MaxValue); err != nil {
			details = append(details, fmt.Sprintf("line %d: value: %v", line, err))
		} else {
			in.Value = Quantity(v)
		}
		inputs, lines = append(inputs, in), append(lines, line)
	}
	if len(inputs) == 0 && len(details) == 0 {
		details = append(details, "file: has no readings; each line is read_on,value (e.g. 2026-11-01,1234.567)")
	}
	if len(details) > 0 {
		return nil, nil, details
	}
	return inputs, lines, nil
}
