package listing

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/uptrace/bun/schema"

	"github.com/propman/propman/platform/auth"
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
// and so would lose the total), and keeps the total. With the role lookup
// in the statement (ScanWorkspace) it keeps the membership too, and a row
// without a record (the LEFT JOIN's row of an empty page) adds nothing.
type countedRows struct {
	table *schema.Table
	slice reflect.Value
	total int
	// member is the membership of a ScanWorkspace statement; seen is true
	// once a row came back.
	member memberRow
	seen   bool
	// per row: what each column holds and, for a record's column, its
	// field; the struct being filled, the index of the next column and
	// whether the record's key was NULL.
	kinds  []columnKind
	fields []*schema.Field
	strct  reflect.Value
	next   int
	noKey  bool
}

// memberRow is the membership a ScanWorkspace statement read.
type memberRow struct {
	workspaceID, landlord int64
	role                  string
}

// membership is the membership the rows carried.
func (m *countedRows) membership() *auth.Membership {
	role, _ := auth.ParseRole(m.member.role)
	return &auth.Membership{WorkspaceID: m.member.workspaceID, Role: role, Landlord: m.member.landlord}
}

type columnKind uint8

const (
	recordColumn columnKind = iota
	totalKind
	memberWorkspace
	memberRole
	memberLandlord
)

// The membership's columns in a ScanWorkspace statement.
var memberColumns = map[string]columnKind{
	"_m_workspace": memberWorkspace, "_m_role": memberRole,
	"_m_landlord": memberLandlord,
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
	m.kinds = make([]columnKind, len(cols))
	m.fields = make([]*schema.Field, len(cols))
	for i, c := range cols {
		if c == totalColumn {
			m.kinds[i] = totalKind
			continue
		}
		if k, ok := memberColumns[c]; ok {
			m.kinds[i] = k
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
		m.strct, m.next, m.noKey = row.Elem(), 0, false
		if err := rows.Scan(dest...); err != nil {
			return n, err
		}
		m.seen = true
		if m.noKey {
			continue
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
	i := m.next
	m.next++
	switch m.kinds[i] {
	case recordColumn:
		f := m.fields[i]
		if src == nil && f.IsPK {
			m.noKey = true
			return nil
		}
		return f.ScanValue(m.strct, src)
	case totalKind:
		if src == nil {
			return nil
		}
		n, err := toInt(src)
		m.total = int(n)
		return err
	case memberWorkspace, memberLandlord, memberRole:
		if src == nil {
			// No membership (ReadRecord's record of a stranger).
			return nil
		}
		return m.scanMember(i, src)
	}
	return nil
}

// scanMember takes a column of the membership.
func (m *countedRows) scanMember(i int, src any) error {
	switch m.kinds[i] {
	case memberWorkspace:
		n, err := toInt(src)
		m.member.workspaceID = n
		return err
	case memberLandlord:
		n, err := toInt(src)
		m.member.landlord = n
		return err
	case memberRole:
		switch v := src.(type) {
		case string:
			m.member.role = v
		case []byte:
			m.member.role = string(v)
		default:
			return fmt.Errorf("listing: a role of type %T", src)
		}
	}
	return nil
}

// toInt reads an integer column as either driver sends it.
func toInt(src any) (int64, error) {
	switch v := src.(type) {
	case int64:
		return v, nil
	case []byte:
		return strconv.ParseInt(string(v), 10, 64)
	case string:
		return strconv.ParseInt(v, 10, 64)
	default:
		return 0, fmt.Errorf("listing: an integer of type %T", src)
	}
}
