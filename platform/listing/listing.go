// Package listing is the one way a module serves a list: it reads
// ?page=&per_page= or ?after= and the list's own filters from the query
// string (every problem reported in one 400), runs one page of a Bun query
// in the list's order, and writes the body {"<items>": [...], "total",
// "page", "per_page", "next"} of API-DECISIONS "Everywhere".
//
// Two ways through a list: ?page= (OFFSET; the database reads and skips
// every earlier row, so deep pages cost more and more) and ?after=<next of
// the previous answer> (keyset: "rows after this position in the order",
// which an index on the list's filter and order answers in the same time at
// any depth). A cursor is opaque to clients: base64url of the list's table,
// its order and the sort-key values of the last row of the page.
package listing

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
)

// Pagination bounds of every growing list.
const (
	DefaultPerPage = 50
	MaxPerPage     = 200
	maxPageNumber  = 1_000_000
	// DefaultMaxLen bounds a filter value that declares no length of its own.
	DefaultMaxLen = 200
	// maxCursorLen bounds ?after=; real cursors are under 200 characters.
	maxCursorLen = 512
)

// Filter is one query parameter a list accepts besides page and per_page.
type Filter struct {
	Name string
	// Rule completes "<name>: ..." in the 400 when OK refuses a value.
	Rule string
	// OK accepts or refuses a non-empty value; nil accepts any value of at
	// most MaxLen characters.
	OK func(string) bool
	// MaxLen bounds the value's length in bytes (DefaultMaxLen when 0).
	MaxLen int
}

// OneOf accepts exactly one of values.
func OneOf(name string, values ...string) Filter {
	allowed := append([]string(nil), values...)
	return Filter{
		Name: name, Rule: "must be one of " + strings.Join(allowed, ", "),
		OK: func(v string) bool {
			for _, a := range allowed {
				if v == a {
					return true
				}
			}
			return false
		},
	}
}

// UUID accepts a record id.
func UUID(name string) Filter {
	return Filter{Name: name, Rule: "must be a UUID", OK: func(v string) bool {
		_, err := uuid.Parse(v)
		return err == nil
	}}
}

// Date accepts YYYY-MM-DD.
func Date(name string) Filter {
	return Filter{Name: name, Rule: "must be a date (YYYY-MM-DD)", OK: func(v string) bool {
		_, err := time.Parse(time.DateOnly, v)
		return err == nil
	}}
}

// Month accepts YYYY-MM.
func Month(name string) Filter {
	return Filter{Name: name, Rule: "must be a month (YYYY-MM)", OK: func(v string) bool {
		_, err := time.Parse("2006-01", v)
		return err == nil
	}}
}

// Text accepts free text of 1 to maxLen bytes (a search term, say).
func Text(name string, maxLen int) Filter {
	return Filter{Name: name, MaxLen: maxLen}
}

// Query is a parsed list request. Its values are copies, so it may outlive
// the request (Fiber's strings point into reused buffers).
type Query struct {
	Page    int
	PerPage int
	values  map[string]string
	// after is the decoded ?after= cursor, nil for an offset page.
	after *cursor
	// uncounted: see Uncounted.
	uncounted bool
}

// Uncounted returns q for a list walked with ?after= alone, one that grows
// without bound (a log): Scan never counts its rows, so its first page
// costs what any other does, and the body has no total and no page.
func (q Query) Uncounted() Query {
	q.uncounted = true
	return q
}

// cursor is what ?after= and "next" carry: the list it belongs to (table and
// order) and the sort-key values of the last row before the page.
type cursor struct {
	Order string            `json:"o"`
	Keys  []json.RawMessage `json:"k"`
}

const errCursor = "after: must be the next value of an earlier answer of this list"

// decodeCursor checks the shape of ?after=; Scan checks that it belongs to
// the list and that its values have the types of the list's keys.
func decodeCursor(raw string) (*cursor, bool) {
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return nil, false
	}
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil || c.Order == "" || len(c.Keys) == 0 {
		return nil, false
	}
	return &c, true
}

// After reports whether the request asked for the page after a cursor.
func (q Query) After() bool { return q.after != nil }

// Parse reads ?page= (from 1), ?per_page= (1 to 200, default 50), ?after=
// (a "next" cursor; not together with page) and the given filters. Every
// broken rule becomes one line of a single 400 validation_failed;
// parameters that are not declared are ignored.
func Parse(c *fiber.Ctx, filters ...Filter) (Query, error) {
	q := Query{Page: 1, PerPage: DefaultPerPage}
	var details []string
	if raw := c.Query("after"); raw != "" {
		switch cur, ok := decodeCursor(raw); {
		case len(raw) > maxCursorLen || !ok:
			details = append(details, errCursor)
		case c.Query("page") != "":
			details = append(details, "after: cannot be combined with page")
		default:
			// decodeCursor copied the bytes out of Fiber's buffer.
			q.after = cur
		}
	}
	if raw := c.Query("page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > maxPageNumber {
			details = append(details, "page: must be a whole number from 1")
		} else {
			q.Page = n
		}
	}
	if raw := c.Query("per_page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > MaxPerPage {
			details = append(details, fmt.Sprintf("per_page: must be a whole number from 1 to %d", MaxPerPage))
		} else {
			q.PerPage = n
		}
	}
	for _, f := range filters {
		raw := c.Query(f.Name)
		if raw == "" {
			continue
		}
		limit := f.MaxLen
		if limit <= 0 {
			limit = DefaultMaxLen
		}
		switch {
		case len(raw) > limit:
			details = append(details, fmt.Sprintf("%s: must be at most %d characters", f.Name, limit))
		case f.OK != nil && !f.OK(raw):
			details = append(details, f.Name+": "+f.Rule)
		default:
			if q.values == nil {
				q.values = make(map[string]string, len(filters))
			}
			q.values[f.Name] = strings.Clone(raw)
		}
	}
	if len(details) > 0 {
		return Query{}, fault.Validation(details...)
	}
	return q, nil
}

// Get is the value of filter name, or "" when it was not given.
func (q Query) Get(name string) string { return q.values[name] }

// With returns q with filter name set to value, whatever the client sent:
// a route that narrows another module's list (a tenant's charges are one
// contract's) fixes the filter this way.
func (q Query) With(name, value string) Query {
	values := make(map[string]string, len(q.values)+1)
	for k, v := range q.values {
		values[k] = v
	}
	values[name] = value
	q.values = values
	return q
}

// Offset is the number of records before the page.
func (q Query) Offset() int { return (q.Page - 1) * q.PerPage }

// counted reports whether q's page carries the total: a ?page= request,
// not a cursor's.
func (q Query) counted() bool { return q.after == nil && !q.uncounted }

// Order is a list's sort order: columns of the list's model, all ascending
// or all descending, the last one unique (the id) so that a position in the
// list is exact and a cursor names exactly one row.
type Order struct {
	cols []string
	desc bool
}

// Asc orders by cols, smallest first.
func Asc(cols ...string) Order { return Order{cols: cols} }

// Desc orders by cols, largest first.
func Desc(cols ...string) Order { return Order{cols: cols, desc: true} }

func (o Order) orderBy() []string {
	if !o.desc {
		return o.cols
	}
	out := make([]string, len(o.cols))
	for i, c := range o.cols {
		out[i] = c + " DESC"
	}
	return out
}

// after is the keyset condition "after the row with these key values": a
// row comparison, which PostgreSQL answers from a btree index on the
// list's filter columns followed by cols, and SQLite (3.15+) as well.
func (o Order) after() string {
	op := " > "
	if o.desc {
		op = " < "
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(o.cols)), ", ")
	if len(o.cols) == 1 {
		return o.cols[0] + op + marks
	}
	return "(" + strings.Join(o.cols, ", ") + ")" + op + "(" + marks + ")"
}

// Result is what Scan learnt besides the records.
type Result struct {
	// Total is how many records match the filters; only counted (Counted)
	// for ?page= requests, because a count reads every matching row and a
	// cursor page must cost the same at any depth.
	Total   int
	Counted bool
	// Next is the cursor of the following page, "" on the last one.
	Next string
}

// Scan fills the model of sel (a slice; sel carries the filters, not the
// order) with one page in order, and returns the total (offset pages only)
// and the cursor of the next page. A cursor that is not one of this list's
// gives a 400. Values are sent as bind parameters on PostgreSQL (see
// database.Render). Lists read through the pool: sel must come from the
// store's *bun.DB, never from a transaction.
func Scan(ctx context.Context, sel *bun.SelectQuery, q Query, order Order) (Result, error) {
	db := sel.DB()
	table, dest, err := model(sel)
	if err != nil {
		return Result{}, err
	}
	tag := table.Name + ":" + strings.Join(order.orderBy(), ",")
	var res Result
	var filtered string
	var filteredArgs []any
	counted := q.counted()
	if counted {
		if filtered, filteredArgs, err = database.Render(db, sel); err != nil {
			return Result{}, err
		}
	}
	if sel, err = narrow(sel, table, order, tag, q); err != nil {
		return Result{}, err
	}
	text, args, err := database.Render(db, sel)
	if err != nil {
		return Result{}, err
	}
	var rows *countedRows
	if counted {
		if both := fuse(filtered, text); both != "" {
			text, rows = both, newCountedRows(table, dest)
		}
	}
	scanInto := dest
	if rows != nil {
		scanInto = rows
	}
	if err := database.Scan(ctx, db, text, args, scanInto); err != nil {
		return Result{}, err
	}
	n, next, err := trim(dest, table, order, tag, q)
	if err != nil {
		return Result{}, err
	}
	res.Next = next
	if !counted {
		return res, nil
	}
	res.Counted = true
	switch {
	case rows != nil && n > 0:
		res.Total = rows.total
	case res.Next == "" && (n > 0 || q.Offset() == 0):
		// The last page says how many there are without a count.
		res.Total = q.Offset() + n
	default:
		// An empty page past the end: its statement had no row to carry
		// the count.
		if res.Total, err = count(ctx, db, filtered, filteredArgs); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// count is how many rows the filtered query text selects.
func count(ctx context.Context, db bun.IDB, filtered string, args []any) (int, error) {
	var n int
	err := database.Scan(ctx, db, "SELECT count(*) FROM ("+filtered+") AS list", args, &n)
	return n, err
}

// narrow reads q's page of sel in order: the rows after q's cursor, or from
// its offset, one more than the page to know whether a next page follows.
func narrow(sel *bun.SelectQuery, table *schema.Table, order Order, tag string, q Query) (*bun.SelectQuery, error) {
	if q.after != nil {
		keys, err := decodeKeys(table, order, tag, q.after)
		if err != nil {
			return nil, err
		}
		sel = sel.Where(order.after(), keys...)
	}
	sel = sel.Order(order.orderBy()...).Limit(int64(q.PerPage + 1))
	if q.after == nil && q.Offset() > 0 {
		sel = sel.Offset(int64(q.Offset()))
	}
	return sel, nil
}

// trim cuts the rows narrow read into dest (a pointer to a slice) to the
// page: the rows kept, and the cursor of the next page ("" when none).
func trim(dest any, table *schema.Table, order Order, tag string, q Query) (int, string, error) {
	page := reflect.ValueOf(dest).Elem()
	n := page.Len()
	if n <= q.PerPage {
		return n, "", nil
	}
	page.SetLen(q.PerPage)
	next, err := encodeCursor(table, order, tag, page.Index(q.PerPage-1))
	return q.PerPage, next, err
}

// model returns the table and the destination slice of sel's model.
func model(sel *bun.SelectQuery) (*schema.Table, any, error) {
	tm, ok := sel.GetModel().(bun.TableModel)
	if !ok {
		return nil, nil, fmt.Errorf("listing: the query has no table model")
	}
	dest := sel.GetModel().Value()
	if v := reflect.ValueOf(dest); v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Slice {
		return nil, nil, fmt.Errorf("listing: the model of %s is not a pointer to a slice", tm.Table().Name)
	}
	return tm.Table(), dest, nil
}

func encodeCursor(table *schema.Table, order Order, tag string, row reflect.Value) (string, error) {
	if row.Kind() == reflect.Pointer {
		row = row.Elem()
	}
	c := cursor{Order: tag, Keys: make([]json.RawMessage, len(order.cols))}
	for i, col := range order.cols {
		f := table.LookupField(col)
		if f == nil {
			return "", fmt.Errorf("listing: %s has no column %s", table.Name, col)
		}
		b, err := json.Marshal(f.Value(row).Interface())
		if err != nil {
			return "", fmt.Errorf("listing: cursor value of %s: %w", col, err)
		}
		c.Keys[i] = b
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// decodeKeys turns the cursor's values into values of the key columns'
// types, or a 400 when the cursor is not one of this list and order.
func decodeKeys(table *schema.Table, order Order, tag string, c *cursor) ([]any, error) {
	if c.Order != tag || len(c.Keys) != len(order.cols) {
		return nil, fault.Validation(errCursor)
	}
	keys := make([]any, len(order.cols))
	for i, col := range order.cols {
		f := table.LookupField(col)
		if f == nil {
			return nil, fmt.Errorf("listing: %s has no column %s", table.Name, col)
		}
		v := reflect.New(f.StructField.Type)
		if err := json.Unmarshal(c.Keys[i], v.Interface()); err != nil || string(c.Keys[i]) == "null" {
			return nil, fault.Validation(errCursor)
		}
		keys[i] = v.Elem().Interface()
		switch v.Elem().Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			// Bun writes integers into the text itself; an integer id (a
			// log's) goes as a bind parameter like every other key.
			keys[i] = database.Param{V: v.Elem().Int()}
		}
	}
	return keys, nil
}

// Page is one page of a list as clients receive it.
type Page[T any] struct {
	key     string
	Items   []T
	Total   int
	Page    int
	PerPage int
	// Counted is false on cursor pages, which carry no total and no page.
	Counted bool
	Next    string
}

// NewPage converts the records of a page with out and returns the body
// whose items are under key.
func NewPage[R, T any](key string, records []R, out func(*R) T, res Result, q Query) Page[T] {
	items := make([]T, len(records))
	for i := range records {
		items[i] = out(&records[i])
	}
	return Page[T]{
		key: key, Items: items, Total: res.Total, Page: q.Page, PerPage: q.PerPage,
		Counted: res.Counted, Next: res.Next,
	}
}

// MarshalJSON is EncodeJSON, for a page inside another body.
func (p Page[T]) MarshalJSON() ([]byte, error) { return p.EncodeJSON() }

// EncodeJSON writes {"<key>": [...], "total", "page", "per_page", "next"};
// a cursor page has no total and no page. The JSON is compact, so a
// handler's c.JSON sends it as it is (httpserver.SelfEncoded).
func (p Page[T]) EncodeJSON() ([]byte, error) {
	items, err := json.Marshal(p.Items)
	if err != nil {
		return nil, err
	}
	key, err := json.Marshal(p.key)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, len(items)+len(key)+len(p.Next)+80)
	buf = append(buf, '{')
	buf = append(buf, key...)
	buf = append(buf, ':')
	buf = append(buf, items...)
	if p.Counted {
		buf = append(buf, `,"total":`...)
		buf = strconv.AppendInt(buf, int64(p.Total), 10)
		buf = append(buf, `,"page":`...)
		buf = strconv.AppendInt(buf, int64(p.Page), 10)
	}
	buf = append(buf, `,"per_page":`...)
	buf = strconv.AppendInt(buf, int64(p.PerPage), 10)
	buf = append(buf, `,"next":`...)
	if p.Next == "" {
		buf = append(buf, "null"...)
	} else {
		// base64url needs no escaping in a JSON string.
		buf = append(buf, '"')
		buf = append(buf, p.Next...)
		buf = append(buf, '"')
	}
	buf = append(buf, '}')
	return buf, nil
}
