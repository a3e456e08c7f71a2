package listing

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/uptrace/bun/schema"
)

// A counted page (?page=) used to cost two round trips, the page and then
// its count; with the role lookup of issue 26 a first page of a list became
// three. fuse asks for both in one statement: the count of the filtered
// rows is a scalar subquery in the page's select list, which PostgreSQL
// (an InitPlan) and SQLite (a constant subquery) run once per statement.
// The page's text begins with the filtered query's text (Bun writes ORDER
// BY, LIMIT and OFFSET last), so on PostgreSQL both parts use the same
// placeholders and the same values.
const totalColumn = "_total"

// fuse returns the one statement of page and its count, or "" when page
// is not the filtered query followed by its order and limit (then the
// caller counts apart).
func fuse(filtered, page string) string {
	const sel = "SELECT "
	if !strings.HasPrefix(page, filtered) || !strings.HasPrefix(page, sel) ||
		strings.HasPrefix(page[len(sel):], "DISTINCT") {
		return ""
	}
	return sel + "(SELECT count(*) FROM (" + filtered + ") AS list) AS " + totalColumn + ", " + page[len(sel):]
}

// countedRows scans the rows of a fused statement into the list's slice, as
// Bun's model would (Bun leaves out a column whose name begins with "_",
// and so would lose the total), and keeps the total.
type countedRows struct {
	table *schema.Table
	slice reflect.Value
	total int
	// per row: the field of each column (nil for the total), the struct
	// being filled and the index of the next column.
	fields []*schema.Field
	strct  reflect.Value
	next   int
}

func newCountedRows(table *schema.Table, dest any) *countedRows {
	return &countedRows{table: table, slice: reflect.ValueOf(dest).Elem()}
}

// Value is the slice the rows fill.
func (m *countedRows) Value() any { return m.slice.Addr().Interface() }

// ScanRows fills the slice with every row.
func (m *countedRows) ScanRows(_ context.Context, rows *sql.Rows) (int, error) {
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	m.fields = make([]*schema.Field, len(cols))
	for i, c := range cols {
		if c == totalColumn {
			continue
		}
		if m.fields[i] = m.table.LookupField(c); m.fields[i] == nil {
			return 0, fmt.Errorf("listing: %s has no column %q", m.table.TypeName, c)
		}
	}
	dest := make([]any, len(cols))
	for i := range dest {
		dest[i] = m
	}
	pointers := m.slice.Type().Elem().Kind() == reflect.Pointer
	n := 0
	for rows.Next() {
		row := reflect.New(m.table.Type)
		m.strct, m.next = row.Elem(), 0
		if err := rows.Scan(dest...); err != nil {
			return n, err
		}
		if pointers {
			m.slice.Set(reflect.Append(m.slice, row))
		} else {
			m.slice.Set(reflect.Append(m.slice, m.strct))
		}
		n++
	}
	return n, rows.Err()
}

// Scan takes the value of the next column of the current row.
func (m *countedRows) Scan(src any) error {
	f := m.fields[m.next]
	m.next++
	if f != nil {
		return f.ScanValue(m.strct, src)
	}
	switch v := src.(type) {
	case int64:
		m.total = int(v)
	case []byte:
		return m.parseTotal(string(v))
	case string:
		return m.parseTotal(v)
	default:
		return fmt.Errorf("listing: a count of type %T", src)
	}
	return nil
}

func (m *countedRows) parseTotal(s string) error {
	n, err := strconv.Atoi(s)
	m.total = n
	return err
}
